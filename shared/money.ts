/**
 * Money is a decimal string at every edge ("12500.00") and integer cents inside
 * calculations, so sums never meet floating point. `parseMoney` is the one reading of an
 * amount a person or a program gives: forms, REST and the sync checks all use it ([S14]).
 */

/**
 * The largest amount: what the Postgres columns (`numeric(14, 2)`) hold. In cents it is far
 * below 2^53, so cent arithmetic in JavaScript stays exact.
 */
export const MAX_MONEY_CENTS = 99_999_999_999_999;

export const MONEY_MESSAGES = {
  notAnAmount: 'Must be an amount in dollars, like 1234, 1,234.56 or $1,234.56',
  negative: 'Must not be negative: type the amount without a minus sign',
  decimals: 'Must have at most two decimals (cents)',
  tooLarge: 'Must be at most $999,999,999,999.99',
} as const;

export type MoneyReading = { ok: true; cents: number; value: string } | { ok: false; message: string };

/**
 * Dollars as people type them: digits with or without thousands separators (every group of
 * three: "1,234,567"), an optional '$' before them (a space after it is fine), an optional dot and one or two decimals;
 * ".5" is half a dollar. Spaces around it are ignored.
 */
const AMOUNT = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d{1,2}))?$/;

/**
 * Reads an amount strictly ([S14]): what it accepts is stored exactly as typed (as the
 * canonical "1234.50"); everything else is refused with a message saying what is allowed,
 * never cut, rounded or stripped into another amount. No exponents, no signs, at most two
 * decimals, at most `MAX_MONEY_CENTS`. A number (a JSON body) is read as its own shortest
 * text, so 12.5 is "12.50" and 12.345 is refused.
 */
export function parseMoney(input: string | number): MoneyReading {
  const text = (typeof input === 'number' ? String(input) : input).trim();
  if (text.length > 40) return { ok: false, message: MONEY_MESSAGES.notAnAmount };
  const match = AMOUNT.exec(text);
  if (!match || (match[1] === undefined && match[2] === undefined)) {
    if (/^[-−(]|^\$\s*-/.test(text) && AMOUNT.test(text.replace(/^\$?\s*[-−(]\s*|\)$/g, ''))) {
      return { ok: false, message: MONEY_MESSAGES.negative };
    }
    if (/^\$?(\d{1,3}(,\d{3})+|\d+)?\.\d{3,}$/.test(text)) return { ok: false, message: MONEY_MESSAGES.decimals };
    return { ok: false, message: MONEY_MESSAGES.notAnAmount };
  }
  const whole = (match[1] ?? '').replaceAll(',', '').replace(/^0+(?=\d)/, '');
  // Compared as text before any arithmetic: a long run of digits is never turned into a float.
  if (whole.length > 12) return { ok: false, message: MONEY_MESSAGES.tooLarge };
  const cents = Number(whole || '0') * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (cents > MAX_MONEY_CENTS) return { ok: false, message: MONEY_MESSAGES.tooLarge };
  return { ok: true, cents, value: fromCents(cents) };
}

const DECIMAL = /^\d{1,12}(\.\d{0,2})?$/;

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
