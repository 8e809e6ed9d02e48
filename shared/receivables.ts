import { installmentSchedule, saleStatus, type Installment, type SaleTerms } from './sales.ts';

/**
 * What buyers owe and how late it is, computed by these functions on every device and for
 * REST (`GET /api/sales`, `GET /api/dashboard/metrics`), from the shared schedule ([S8]) and
 * what was paid after the down payment. Amounts are integer cents; days are YYYY-MM-DD.
 */

/** [S16] A sale's standing as the lists show it: Paid, Open, or Open with something late. */
export type SaleStandingLabel = 'Paid' | 'Open' | 'Past due';
export const SALE_STANDINGS: readonly SaleStandingLabel[] = ['Open', 'Past due', 'Paid'];

/** One installment as the schedule shows it on `today`. */
export type ScheduleRow = Installment & {
  /** What of it the payments have not reached yet (payments cover installments in order). */
  owedCents: number;
  /** Fully covered by the payments. */
  paid: boolean;
  /** Not fully covered, and its due date is before today ([S10]). */
  late: boolean;
  /** Whole days since its due date when late, else 0. */
  daysLate: number;
};

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** [S12] [S16] The schedule on `today`: each installment covered in order by `paidCents`, late ones marked. */
export function scheduleRows(sale: SaleTerms, paidCents: number, today: string): ScheduleRow[] {
  let covering = Math.max(0, paidCents);
  return installmentSchedule(sale).map((installment) => {
    const covered = Math.min(covering, installment.amountCents);
    covering -= covered;
    const owedCents = installment.amountCents - covered;
    const late = owedCents > 0 && installment.dueDate < today;
    return { ...installment, owedCents, paid: owedCents === 0, late, daysLate: late ? daysBetween(installment.dueDate, today) : 0 };
  });
}

/** [S16] Paid once everything owed is paid ([S7]); Past due while an installment is late; else Open. */
export function saleStandingLabel(sale: SaleTerms, paidCents: number, today: string): SaleStandingLabel {
  if (saleStatus(sale, paidCents) === 'Paid') return 'Paid';
  return scheduleRows(sale, paidCents, today).some((row) => row.late) ? 'Past due' : 'Open';
}

/** [D11] Receivables ageing: what open sales still owe, by how late it is. */
export type Ageing = {
  /** Not late yet: due today or later. */
  current: number;
  days1to30: number;
  days31to60: number;
  days61to90: number;
  over90: number;
};

export const AGEING_BUCKETS: readonly { key: keyof Ageing; label: string }[] = [
  { key: 'current', label: 'Current' },
  { key: 'days1to30', label: '1–30 days' },
  { key: 'days31to60', label: '31–60 days' },
  { key: 'days61to90', label: '61–90 days' },
  { key: 'over90', label: '90+ days' },
];

export const emptyAgeing = (): Ageing => ({ current: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0 });

function bucketOf(daysLate: number): keyof Ageing {
  if (daysLate <= 0) return 'current';
  if (daysLate <= 30) return 'days1to30';
  if (daysLate <= 60) return 'days31to60';
  if (daysLate <= 90) return 'days61to90';
  return 'over90';
}

/**
 * One buyer's (or the ranch's) receivables on `today`: what open sales still owe (their
 * balance, interest included), what of it is late, and its ageing. Adds into `into`.
 */
export type Receivables = { owedCents: number; lateCents: number; ageing: Ageing };

export const emptyReceivables = (): Receivables => ({ owedCents: 0, lateCents: 0, ageing: emptyAgeing() });

export function addReceivables(into: Receivables, sale: SaleTerms, paidCents: number, today: string): Receivables {
  if (saleStatus(sale, paidCents) === 'Paid') return into;
  for (const row of scheduleRows(sale, paidCents, today)) {
    if (row.owedCents === 0) continue;
    into.owedCents += row.owedCents;
    if (row.late) into.lateCents += row.owedCents;
    into.ageing[bucketOf(row.daysLate)] += row.owedCents;
  }
  return into;
}
