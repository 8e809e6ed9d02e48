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

const wholeDollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const withCents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

/** "12500.00" → "$12,500"; "12500.50" → "$12,500.50" (cents shown only when there are any). */
export function formatUsd(value: string | number): string {
  const cents = typeof value === 'number' ? Math.round(value * 100) : toCents(value);
  return (cents % 100 === 0 ? wholeDollars : withCents).format(cents / 100);
}

/** Typing display: sanitized input shown with thousands separators, decimals as typed. */
export function formatUsdInput(raw: string): string {
  const clean = sanitizeMoneyInput(raw);
  if (clean === '') return '';
  const [whole, fraction] = clean.split('.');
  const grouped = (whole === '' ? '0' : String(Number(whole))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? `$${grouped}` : `$${grouped}.${fraction}`;
}
