import { installmentSchedule, pastDueCents, type SaleTerms } from './sales.ts';
import type { CareEntry, CareKind } from './schemas/care.ts';

/**
 * What is due ([K4]): computed the same way wherever it is shown (the bell, the Dashboard's
 * "Due soon" card, browser notifications). Dates are calendar dates (YYYY-MM-DD) where the
 * person is.
 */

/** How far ahead "due soon" looks. */
export const DUE_SOON_DAYS = 14;

/** `date` plus `days` (may be negative). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

export type CareDue = {
  type: 'care';
  /** Changes when the item is news: another due date, or due soon becoming overdue. */
  key: string;
  horseId: string;
  kind: CareKind;
  dueOn: string;
  overdue: boolean;
};

/** Which entry is the latest of a horse's kind: the later date done, then the later record. */
function later(a: CareEntry, b: CareEntry): boolean {
  if (a.doneOn !== b.doneOn) return a.doneOn > b.doneOn;
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt;
  return a.id > b.id;
}

/**
 * For each horse and kind of care, the latest entry decides: its next due date is overdue
 * when before `today`, due soon when at most DUE_SOON_DAYS ahead; a latest entry with no next
 * due date means nothing is due. Overdue first, then by date.
 */
export function careDue(entries: Iterable<CareEntry>, today: string): CareDue[] {
  const latest = new Map<string, CareEntry>();
  for (const entry of entries) {
    const key = `${entry.horseId} ${entry.kind}`;
    const known = latest.get(key);
    if (!known || later(entry, known)) latest.set(key, entry);
  }
  const until = addDays(today, DUE_SOON_DAYS);
  const due: CareDue[] = [];
  for (const entry of latest.values()) {
    const dueOn = entry.nextDueOn;
    if (dueOn === null || dueOn > until) continue;
    const overdue = dueOn < today;
    due.push({
      type: 'care',
      key: `care:${entry.horseId}:${entry.kind}:${dueOn}:${overdue ? 'overdue' : 'soon'}`,
      horseId: entry.horseId,
      kind: entry.kind,
      dueOn,
      overdue,
    });
  }
  return due.sort((a, b) => Number(b.overdue) - Number(a.overdue) || a.dueOn.localeCompare(b.dueOn) || a.key.localeCompare(b.key));
}

export type SaleDue = {
  type: 'sale';
  key: string;
  saleId: string;
  horseId: string;
  buyerId: string;
  pastDueCents: number;
  /** The due date of the oldest installment not yet covered by payments. */
  since: string;
};

type DueSale = SaleTerms & { id: string; horseId: string; buyerId: string };

/**
 * Sales with an installment past due on `today`: the sales rule (`pastDueCents`, the one the
 * Dashboard's Past Due figure adds up), nothing computed a second way. Oldest first.
 */
export function salesPastDue(sales: Iterable<DueSale>, paidCentsOf: (saleId: string) => number, today: string): SaleDue[] {
  const due: SaleDue[] = [];
  for (const sale of sales) {
    const paid = paidCentsOf(sale.id);
    const cents = pastDueCents(sale, paid, today);
    if (cents <= 0) continue;
    let covered = paid;
    let since = today;
    for (const installment of installmentSchedule(sale)) {
      if (covered < installment.amountCents) {
        since = installment.dueDate;
        break;
      }
      covered -= installment.amountCents;
    }
    due.push({
      type: 'sale',
      key: `sale:${sale.id}:${since}`,
      saleId: sale.id,
      horseId: sale.horseId,
      buyerId: sale.buyerId,
      pastDueCents: cents,
      since,
    });
  }
  return due.sort((a, b) => a.since.localeCompare(b.since) || a.key.localeCompare(b.key));
}
