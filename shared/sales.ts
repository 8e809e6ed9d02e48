import { formatUsd, fromCents, toCents } from './money.ts';

/**
 * Everything derived from a sale, computed by these functions on every device and on the
 * server (REST answers run them over the projection): its status, installment schedule,
 * balance and what is past due. Amounts are integer cents.
 */

export type SaleTerms = {
  salePrice: string;
  downPayment: string;
  termsMonths: number;
  interestApr: number | null;
  scheduleStartDate: string | null;
  createdAt: string;
};

/**
 * `Paid` once the payments after the down payment cover every installment, interest included
 * (with no interest: the sale price less the down payment), else `Open`. A sale with interest
 * therefore takes payments until the buyer's interest is paid too.
 */
export function saleStatus(sale: SaleTerms, paidCents: number): 'Open' | 'Paid' {
  return paidCents >= financedTotalCents(sale) ? 'Paid' : 'Open';
}

/**
 * What a sale's payments and corrections say, in cents: `paidCents` the payments after the
 * down payment that are not void ([P10]), `refundedCents` the refunds ([P11]), `cancelled`
 * whether a cancellation names it ([S17]). `saleMoneyBySale` makes it from the rows; REST sums
 * the same in SQL.
 */
export type SaleMoney = { paidCents: number; refundedCents: number; cancelled: boolean };

const NO_MONEY: SaleMoney = { paidCents: 0, refundedCents: 0, cancelled: false };

/** A correction as far as money goes ([P10]–[P12], [S17]). */
export type MoneyCorrection = { kind: string; saleId: string; paymentId: string | null; amount: string | null };

/** Cents of a stored amount; a malformed one (never stored by the app) counts as 0. */
function storedCents(amount: string | null | undefined): number {
  try {
    return amount ? toCents(amount) : 0;
  } catch {
    return 0;
  }
}

/**
 * Each sale's money from its payments and corrections: a payment that any void names does not
 * count (two voids of one payment void it once); refunds add up; one cancellation cancels.
 */
export function saleMoneyBySale(
  payments: Iterable<{ id?: string; saleId: string; amount: string }>,
  corrections: Iterable<MoneyCorrection>,
): Map<string, SaleMoney> {
  const voided = new Set<string>();
  const money = new Map<string, SaleMoney>();
  const of = (saleId: string) => {
    let found = money.get(saleId);
    if (!found) money.set(saleId, (found = { ...NO_MONEY }));
    return found;
  };
  for (const correction of corrections) {
    if (correction.kind === 'void' && correction.paymentId) voided.add(correction.paymentId);
    else if (correction.kind === 'refund') of(correction.saleId).refundedCents += storedCents(correction.amount);
    else if (correction.kind === 'cancel') of(correction.saleId).cancelled = true;
  }
  for (const payment of payments) if (!payment.id || !voided.has(payment.id)) of(payment.saleId).paidCents += storedCents(payment.amount);
  return money;
}

/** What the buyer has paid after the down payment and kept: payments less refunds. */
export const keptCents = (money: SaleMoney | undefined): number => (money ? money.paidCents - money.refundedCents : 0);

/**
 * A sale's standing: the figures every sale list shows, on devices and over REST.
 * - `status`: 'Cancelled' once cancelled ([S17]); else Paid or Open by what the buyer has paid
 *   and kept (payments less refunds, [S7]).
 * - `balanceCents`: what is still owed, interest included; nothing on a cancelled sale.
 * - `creditCents` ([P8]): money the ranch holds for the buyer — what was paid beyond everything
 *   owed (a payment recorded offline on a sale paid off meanwhile is kept: the money was
 *   received), or on a cancelled sale everything received, down payment included, less refunds.
 * A plain number is what was paid after the down payment, with no corrections.
 */
export type SaleStanding = {
  status: 'Open' | 'Paid' | 'Cancelled';
  paidCents: number;
  refundedCents: number;
  balanceCents: number;
  creditCents: number;
};

export function saleStanding(sale: SaleTerms, money: SaleMoney | number): SaleStanding {
  const { paidCents, refundedCents, cancelled } = typeof money === 'number' ? { ...NO_MONEY, paidCents: money } : money;
  const kept = paidCents - refundedCents;
  if (cancelled) {
    const credit = Math.max(0, toCents(sale.downPayment) + kept);
    return { status: 'Cancelled', paidCents, refundedCents, balanceCents: 0, creditCents: credit };
  }
  const owed = financedTotalCents(sale);
  return {
    status: kept >= owed ? 'Paid' : 'Open',
    paidCents,
    refundedCents,
    balanceCents: Math.max(0, owed - kept),
    creditCents: Math.max(0, kept - owed),
  };
}

/** [P11] A refund may not exceed what is held for the buyer (`creditCents`): the message, or null. */
export function refundMessage(amountCents: number, creditCents: number): string | null {
  if (amountCents <= creditCents) return null;
  return creditCents === 0
    ? 'Nothing is held for this buyer to refund'
    : `Refund is more than the ${formatUsd(fromCents(creditCents))} held for the buyer`;
}

/**
 * [P8] A payment may not exceed the sale's balance: the message says the balance, or null
 * when `amountCents` is within it. The form and `POST /api/payments` both ask this.
 */
export function overpaymentMessage(amountCents: number, balance: number): string | null {
  if (amountCents <= balance) return null;
  return balance === 0
    ? 'This sale is paid in full and takes no more payments'
    : `Amount is more than the balance of ${formatUsd(fromCents(balance))}`;
}

/** What the buyer still owes after the down payment and `paidCents`, interest included; never negative. */
export function balanceCents(sale: SaleTerms, paidCents: number): number {
  return Math.max(0, financedTotalCents(sale) - paidCents);
}

/** What the installments add up to: the amount financed, plus the interest on it. */
export function financedTotalCents(sale: SaleTerms): number {
  return installmentSchedule(sale).reduce((sum, installment) => sum + installment.amountCents, 0);
}

export type Installment = { number: number; dueDate: string; amountCents: number };

/** The day the schedule starts: the chosen start date, or the day the sale was made. */
export function scheduleStart(sale: Pick<SaleTerms, 'scheduleStartDate' | 'createdAt'>): string {
  return (sale.scheduleStartDate ?? sale.createdAt).slice(0, 10);
}

/** `date` plus `months`, the day clamped to the month's end (Jan 31 + 1 month → Feb 28/29). */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}

/**
 * The installments of the amount financed (price less down payment). Terms 0 ('Paid in
 * Full'): one installment of the whole balance on the start date. Otherwise `termsMonths`
 * equal monthly installments, the first on the start date, amortised at `interestApr`
 * (annual percent, compounded monthly; none means 0 %); the last absorbs the rounding.
 */
export function installmentSchedule(sale: SaleTerms): Installment[] {
  const financed = toCents(sale.salePrice) - toCents(sale.downPayment);
  if (financed <= 0) return [];
  const start = scheduleStart(sale);
  const n = sale.termsMonths;
  if (n === 0) return [{ number: 1, dueDate: start, amountCents: financed }];
  const rate = (sale.interestApr ?? 0) / 100 / 12;
  const payment = rate === 0 ? financed / n : (financed * rate) / (1 - (1 + rate) ** -n);
  const regular = Math.round(payment);
  const total = Math.round(payment * n);
  return Array.from({ length: n }, (_, index) => ({
    number: index + 1,
    dueDate: addMonths(start, index),
    amountCents: index === n - 1 ? total - regular * (n - 1) : regular,
  }));
}

/**
 * [S10] What is overdue on an open sale on `today` (YYYY-MM-DD): installments due before
 * today (an installment is late the day after its due date), less everything paid after the
 * down payment; never negative. A paid sale owes nothing.
 */
export function pastDueCents(sale: SaleTerms, paidCents: number, today: string): number {
  if (saleStatus(sale, paidCents) === 'Paid') return 0;
  const due = installmentSchedule(sale)
    .filter((installment) => installment.dueDate < today)
    .reduce((sum, installment) => sum + installment.amountCents, 0);
  return Math.max(0, due - paidCents);
}
