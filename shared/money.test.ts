import { describe, expect, it } from 'vitest';
import { formatUsd, formatUsdInput, fromCents, normalizeMoney, sanitizeMoneyInput, toCents } from './money.ts';

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

  it('[H6] [S14] keeps only digits and one dot with at most two decimals while typing', () => {
    expect(sanitizeMoneyInput('$12,500.999')).toBe('12500.99');
    expect(sanitizeMoneyInput('1.2.3')).toBe('1.23');
    expect(sanitizeMoneyInput('abc')).toBe('');
    expect(formatUsdInput('12500')).toBe('$12,500');
    expect(formatUsdInput('$1,234,567.5')).toBe('$1,234,567.5');
    expect(formatUsdInput('.5')).toBe('$0.5');
    expect(formatUsdInput('')).toBe('');
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
