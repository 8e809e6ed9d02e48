import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUsd, fromCents, MAX_MONEY_CENTS, MONEY_MESSAGES, normalizeMoney, parseMoney, toCents } from './money.ts';
import { money } from './schemas/common.ts';

/** A money text as people and programs write it, or something close to it that is not one. */
const moneyLike = fc.oneof(
  fc.string(),
  fc.stringMatching(/^[$ ]?[-−(]?[\d,.]{0,20}[e)]?\d{0,3}$/),
  fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n }).map(
    (cents) =>
      `${cents / 100n}.${String(cents % 100n)
        .replace('-', '')
        .padStart(2, '0')}`,
  ),
  fc.integer({ min: 0, max: MAX_MONEY_CENTS }).map((cents) => formatUsd(fromCents(cents))),
);

describe('money', () => {
  it('[S14] converts decimal strings to cents and back without floating point', () => {
    expect(toCents('12500')).toBe(1_250_000);
    expect(toCents('0.1')).toBe(10);
    expect(toCents('0.07')).toBe(7);
    expect(fromCents(toCents('0.1') + toCents('0.2'))).toBe('0.30');
    expect(normalizeMoney('12500.5')).toBe('12500.50');
    expect(() => toCents('1.234')).toThrow(RangeError);
    expect(() => toCents('-5')).toThrow(RangeError);
    expect(() => fromCents(1.5)).toThrow(RangeError);
  });

  it('[S14] reads what people type for dollars', () => {
    const read = (text: string | number) => parseMoney(text);
    expect(read('1234')).toEqual({ ok: true, cents: 123_400, value: '1234.00' });
    expect(read('1,234.56')).toEqual({ ok: true, cents: 123_456, value: '1234.56' });
    expect(read('$1,234.56')).toEqual({ ok: true, cents: 123_456, value: '1234.56' });
    expect(read(' $ 1,234,567.5 ')).toEqual({ ok: true, cents: 123_456_750, value: '1234567.50' });
    expect(read('.5')).toEqual({ ok: true, cents: 50, value: '0.50' });
    expect(read('0')).toEqual({ ok: true, cents: 0, value: '0.00' });
    expect(read('007')).toEqual({ ok: true, cents: 700, value: '7.00' });
    expect(read(12.5)).toEqual({ ok: true, cents: 1250, value: '12.50' });
    expect(read('999,999,999,999.99')).toEqual({ ok: true, cents: MAX_MONEY_CENTS, value: '999999999999.99' });
  });

  it('[S14] refuses everything else with what is allowed, never cut or rewritten', () => {
    const message = (text: string | number) => {
      const reading = parseMoney(text);
      return reading.ok ? `accepted as ${reading.value}` : reading.message;
    };
    expect(message('1e30')).toBe(MONEY_MESSAGES.notAnAmount);
    expect(message(1e30)).toBe(MONEY_MESSAGES.notAnAmount);
    expect(message('-50')).toBe(MONEY_MESSAGES.negative);
    expect(message('$-50')).toBe(MONEY_MESSAGES.negative);
    expect(message('-$50')).toBe(MONEY_MESSAGES.negative);
    expect(message('(50)')).toBe(MONEY_MESSAGES.negative);
    expect(message(-50)).toBe(MONEY_MESSAGES.negative);
    expect(message('12.345')).toBe(MONEY_MESSAGES.decimals);
    expect(message(12.345)).toBe(MONEY_MESSAGES.decimals);
    expect(message(0.1 + 0.2)).toBe(MONEY_MESSAGES.decimals);
    expect(message('99999999999999999')).toBe(MONEY_MESSAGES.tooLarge);
    expect(message('1000000000000')).toBe(MONEY_MESSAGES.tooLarge);
    for (const text of ['', '$', '.', '12.', '1,23', '12,34.5', '1.2.3', 'abc', '12 500', '12$', 'Infinity', 'NaN', '0x10', '１２']) {
      expect(message(text), text).toBe(MONEY_MESSAGES.notAnAmount);
    }
    expect(MONEY_MESSAGES.tooLarge).toContain(formatUsd(fromCents(MAX_MONEY_CENTS)));
  });

  it('[S14] property: an accepted amount round-trips exactly (shown = stored), anything else is refused by the schema too', () => {
    fc.assert(
      fc.property(moneyLike, (text) => {
        const reading = parseMoney(text);
        const schema = money.safeParse(text);
        if (!reading.ok) {
          expect(schema.success).toBe(false);
          if (!schema.success) expect(schema.error.issues.map((issue) => issue.message)).toEqual([reading.message]);
          return;
        }
        expect(schema).toEqual({ success: true, data: reading.value });
        expect(toCents(reading.value)).toBe(reading.cents);
        expect(reading.cents).toBeLessThanOrEqual(MAX_MONEY_CENTS);
        // What the form shows once the field is left is read back as the very same amount.
        const shown = formatUsd(reading.value);
        expect(parseMoney(shown)).toEqual(reading);
        expect(parseMoney(reading.value)).toEqual(reading);
        // Nothing but the digits typed: the typed text, without '$', ',' and spaces, is the amount.
        const digits = text.replace(/[$,\s]/g, '');
        const [whole = '', fraction = ''] = digits.split('.');
        expect(BigInt(whole || '0') * 100n + BigInt(fraction.padEnd(2, '0'))).toBe(BigInt(reading.cents));
      }),
      { numRuns: 2000 },
    );
  });

  it('[H3] shows dollars with thousands separators, cents only when there are any', () => {
    expect(formatUsd('12500.00')).toBe('$12,500');
    expect(formatUsd('12500.50')).toBe('$12,500.50');
    expect(formatUsd(0)).toBe('$0');
  });

  it('[H3] writes every amount as en-US currency does, without building an Intl formatter at start', () => {
    const whole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
    const cents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
    const amounts = [0, 5, 99, 100, 101, 999_99, 1_000_00, 1_234_56, 12_500_50, 999_999_999_999_99, 1_000_000_000_00];
    for (const amount of [...amounts, ...amounts.map((amount) => -amount).filter((amount) => amount !== 0)]) {
      const expected = (amount % 100 === 0 ? whole : cents).format(amount / 100);
      expect(formatUsd(amount / 100)).toBe(expected);
      if (amount >= 0) expect(formatUsd(fromCents(amount))).toBe(expected);
    }
    expect(formatUsd(12.345)).toBe('$12.35');
  });
});
