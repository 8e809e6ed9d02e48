import { describe, expect, it } from 'vitest';
import { RECORD_SCHEMAS } from './records.ts';
import { saleInput } from './sale.ts';

const HORSE = '0190a0a0-0000-7000-8000-000000000001';
const BUYER = '0190a0a0-0000-7000-8000-000000000002';
const sale = { horseId: HORSE, buyerId: BUYER, salePrice: '5400', termsMonths: 0 };
const messages = (input: unknown) => {
  const result = saleInput.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe("'Paid in Full' terms (sale form and REST)", () => {
  it('[S15] takes the whole price at the sale: the down payment is the sale price', () => {
    expect(messages({ ...sale, downPayment: '$5,400' })).toEqual([]);
    expect(saleInput.parse({ ...sale, downPayment: '5400.00' })).toMatchObject({ downPayment: '5400.00', termsMonths: 0 });
  });

  it('[S15] refuses Paid in Full with less down, saying why', () => {
    expect(messages({ ...sale, downPayment: '0' })).toEqual(['downPayment: Paid in Full: the down payment is the whole sale price']);
    expect(messages({ ...sale })).toEqual(['downPayment: Paid in Full: the down payment is the whole sale price']);
    expect(messages({ ...sale, downPayment: '5399.99' })).toEqual(['downPayment: Paid in Full: the down payment is the whole sale price']);
    // Terms with installments take any down payment up to the price.
    expect(messages({ ...sale, termsMonths: 3, downPayment: '0' })).toEqual([]);
  });

  it('[S15] a synced sale recorded otherwise is still a valid record (create-only: it stays as recorded)', () => {
    const stored = {
      ...sale,
      salePrice: '5400.00',
      downPayment: '0.00',
      interestApr: null,
      scheduleStartDate: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    expect(RECORD_SCHEMAS.sales.safeParse(stored).success).toBe(true);
  });
});
