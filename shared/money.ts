/**
 * Money is a decimal string at every edge ("12500.00") and integer cents inside
 * calculations, so sums never meet floating point.
 */

const DECIMAL = /^\d{1,12}(\.\d{0,2})?$/;

/** Keeps only digits and the first dot, at most two decimals ([H6], [S14] price typing rule). */
export function sanitizeMoneyInput(raw: string): string {
  const kept = raw.replace(/[^\d.]/g, '');
  const dot = kept.indexOf('.');
  if (dot === -1) return kept;
  const whole = kept.slice(0, dot);
  const fraction = kept
    .slice(dot + 1)
    .replace(/\./g, '')
    .slice(0, 2);
  return `${whole}.${fraction}`;
}

export function isDecimalString(value: string): boolean {
  return DECIMAL.test(value);
}

/** "12500.5" → 1250050. Throws on anything that is not a non-negative decimal string. */
export function toCents(value: string): number {
  if (!DECIMAL.test(value)) throw new RangeError(`Not a money amount: ${value}`);
  const [whole, fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** 1250050 → "12500.50", the canonical stored form. */
export function fromCents(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Not a cent amount: ${cents}`);
  const whole = Math.floor(cents / 100);
  const fraction = String(cents % 100).padStart(2, '0');
  return `${whole}.${fraction}`;
}

/** Canonical form of a decimal string: "12500.5" → "12500.50". */
export function normalizeMoney(value: string): string {
  return fromCents(toCents(value));
}

/** "1234567" → "1,234,567". */
const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * The en-US currency text, built by hand: creating an `Intl.NumberFormat` for a currency
 * loads its locale data, a long task on a phone, and this module is evaluated in the start
 * script (docs/web.md "Forms warmed before their first use"). Amounts
 * beyond safe integers, or not numbers at all, still go to Intl, created when first needed.
 */
function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) return intlUsd().format(cents / 100);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const fraction = abs % 100;
  const whole = `${sign}$${grouped(String(Math.floor(abs / 100)))}`;
  return fraction === 0 ? whole : `${whole}.${String(fraction).padStart(2, '0')}`;
}

let intl: Intl.NumberFormat | undefined;
const intlUsd = () => (intl ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }));

/** "12500.00" → "$12,500"; "12500.50" → "$12,500.50" (cents shown only when there are any). */
export function formatUsd(value: string | number): string {
  return formatCents(typeof value === 'number' ? Math.round(value * 100) : toCents(value));
}

/** Typing display: sanitized input shown with thousands separators, decimals as typed. */
export function formatUsdInput(raw: string): string {
  const clean = sanitizeMoneyInput(raw);
  if (clean === '') return '';
  const [whole, fraction] = clean.split('.');
  const dollars = grouped(whole === '' ? '0' : String(Number(whole)));
  return fraction === undefined ? `$${dollars}` : `$${dollars}.${fraction}`;
}
