import { describe, expect, it } from 'vitest';
import {
  addMonths,
  balanceCents,
  financedTotalCents,
  installmentSchedule,
  overpaymentMessage,
  pastDueCents,
  refundMessage,
  saleMoneyBySale,
  saleStanding,
  saleStatus,
} from './sales.ts';

const base = {
  salePrice: '12000.00',
  downPayment: '0',
  termsMonths: 12,
  interestApr: null,
  scheduleStartDate: '2026-01-31',
  createdAt: '2025-12-20T10:00:00.000Z',
};

describe('sales arithmetic', () => {
  it('[P8] a payment above the balance is refused with the balance; what was paid beyond it is a credit', () => {
    expect(overpaymentMessage(2_000_000, 922_444)).toBe('Amount is more than the balance of $9,224.44');
    expect(overpaymentMessage(922_444, 922_444)).toBeNull();
    expect(overpaymentMessage(1, 0)).toBe('This sale is paid in full and takes no more payments');
    const sale = { ...base, salePrice: '100.00', downPayment: '40.00' };
    expect(saleStanding(sale, 5_000)).toEqual({ status: 'Open', paidCents: 5_000, refundedCents: 0, balanceCents: 1_000, creditCents: 0 });
    expect(saleStanding(sale, 7_500)).toEqual({ status: 'Paid', paidCents: 7_500, refundedCents: 0, balanceCents: 0, creditCents: 1_500 });
  });

  it('[P10] [P11] [S17] a void payment counts nowhere, refunds take from the credit, a cancelled sale owes nothing and holds what was paid', () => {
    const sale = { ...base, salePrice: '100.00', downPayment: '40.00' };
    const payments = [
      { id: 'p1', saleId: 's1', amount: '50.00' },
      { id: 'p2', saleId: 's1', amount: '30.00' },
      { id: 'p3', saleId: 's2', amount: '10.00' },
    ];
    const correction = (kind: string, saleId: string, extra: { paymentId?: string; amount?: string } = {}) => ({
      kind,
      saleId,
      paymentId: extra.paymentId ?? null,
      amount: extra.amount ?? null,
    });
    // Two voids of one payment void it once.
    const money = saleMoneyBySale(payments, [
      correction('void', 's1', { paymentId: 'p2' }),
      correction('void', 's1', { paymentId: 'p2' }),
      correction('cancel', 's2'),
      correction('cancel', 's2'),
      correction('refund', 's2', { amount: '25.00' }),
    ]);
    expect(money.get('s1')).toEqual({ paidCents: 5_000, refundedCents: 0, cancelled: false });
    expect(saleStanding(sale, money.get('s1')!)).toMatchObject({ status: 'Open', balanceCents: 1_000, creditCents: 0 });
    // Cancelled: nothing owed; the down payment and the payment, less the refund, are held for the buyer.
    expect(saleStanding(sale, money.get('s2')!)).toEqual({
      status: 'Cancelled',
      paidCents: 1_000,
      refundedCents: 2_500,
      balanceCents: 0,
      creditCents: 2_500,
    });
    // A refund of a credit leaves the sale Paid, with no credit.
    expect(saleStanding(sale, { paidCents: 7_500, refundedCents: 1_500, cancelled: false })).toMatchObject({
      status: 'Paid',
      creditCents: 0,
    });
    expect(refundMessage(2_501, 2_500)).toBe('Refund is more than the $25 held for the buyer');
    expect(refundMessage(1, 0)).toBe('Nothing is held for this buyer to refund');
    expect(refundMessage(2_500, 2_500)).toBeNull();
  });

  it('[S7] is Paid once down payment and payments reach the price, when there is no interest', () => {
    expect(saleStatus({ ...base, salePrice: '100.00', downPayment: '40.00' }, 5_999)).toBe('Open');
    expect(saleStatus({ ...base, salePrice: '100.00', downPayment: '40.00' }, 6_000)).toBe('Paid');
    expect(saleStatus({ ...base, salePrice: '100.00', downPayment: '100.00' }, 0)).toBe('Paid');
  });

  it('[S7] with interest, stays Open until every installment, interest included, is paid', () => {
    const sale = { ...base, salePrice: '12000.00', downPayment: '2000.00', termsMonths: 12, interestApr: 10 };
    const owed = financedTotalCents(sale);
    expect(owed).toBe(installmentSchedule(sale).reduce((sum, installment) => sum + installment.amountCents, 0));
    expect(owed).toBeGreaterThan(1_000_000);
    // The principal is covered, the buyer's interest is not: still Open, still takes payments.
    expect(saleStatus(sale, 1_000_000)).toBe('Open');
    expect(pastDueCents(sale, 1_000_000, '2027-06-01')).toBe(owed - 1_000_000);
    expect(saleStatus(sale, owed - 1)).toBe('Open');
    expect(saleStatus(sale, owed)).toBe('Paid');
    expect(balanceCents(sale, 1_000_000)).toBe(owed - 1_000_000);
    expect(balanceCents(sale, owed + 500)).toBe(0);
  });

  it('[S8] adds months clamping to the end of the month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-11-15', 3)).toBe('2027-02-15');
  });

  it('[S8] splits the balance into equal monthly installments without interest', () => {
    const schedule = installmentSchedule({ ...base, downPayment: '2000.00' });
    expect(schedule).toHaveLength(12);
    expect(schedule[0]).toEqual({ number: 1, dueDate: '2026-01-31', amountCents: 83_333 });
    expect(schedule[1]?.dueDate).toBe('2026-02-28');
    expect(schedule.reduce((sum, i) => sum + i.amountCents, 0)).toBe(1_000_000);
  });

  it('[S8] amortises with interest', () => {
    const schedule = installmentSchedule({ ...base, termsMonths: 3, interestApr: 12 });
    // 12 000 at 1 % a month over 3 months: 4 080.27 a month; the last absorbs the rounding.
    expect(schedule.map((i) => i.amountCents)).toEqual([408_027, 408_027, 408_026]);
  });

  it('[S8] makes "Paid in Full" one installment on the start date, or the sale date without one', () => {
    expect(installmentSchedule({ ...base, termsMonths: 0, scheduleStartDate: null })).toEqual([
      { number: 1, dueDate: '2025-12-20', amountCents: 1_200_000 },
    ]);
  });

  it('[S10] counts as past due what fell due and was not paid', () => {
    expect(pastDueCents(base, 0, '2026-01-30')).toBe(0);
    // Due on Jan 31: late from Feb 1 ([S10]).
    expect(pastDueCents(base, 0, '2026-01-31')).toBe(0);
    expect(pastDueCents(base, 0, '2026-02-01')).toBe(100_000);
    expect(pastDueCents(base, 50_000, '2026-03-01')).toBe(150_000);
    expect(pastDueCents(base, 500_000, '2026-03-01')).toBe(0);
    expect(pastDueCents(base, 1_200_000, '2027-06-01')).toBe(0);
  });
});
