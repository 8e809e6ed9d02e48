import {
  CARE_KIND_LABELS,
  careDue,
  figuresMoney,
  saleMoneyBySale,
  salesPastDue,
  type CareDue,
  type SaleDue,
} from '../../../../shared/index.ts';
import type { RanchDb } from '../../data/db.ts';
import { flattenCare } from '../../data/horse-care-row.ts';
import { readAllByKey } from '../../data/read-by-key.ts';
import { allPayments } from '../../data/ledger/read-payments.ts';
import { contactName } from '../contacts/contact-name.ts';
import { centsText, dateText } from '../sales/sale-display.ts';
import { keyHash } from './due-seen.ts';

/**
 * One line of the bell and the Dashboard's "Due soon" card ([K4]), with what a person reads.
 * `hash` is the key's (due-seen.ts): computed here, where the data worker reads what is due,
 * rather than by the page, which compares thousands of them with what was seen and notified.
 */
export type DueRow = (CareDue | SaleDue) & { title: string; detail: string; overdue: boolean; hash?: string };

function careRow(due: CareDue, horseName: string): DueRow {
  const kind = CARE_KIND_LABELS[due.kind];
  return {
    ...due,
    hash: keyHash(due.key),
    title: `${kind} ${due.overdue ? 'overdue' : 'due'}: ${horseName}`,
    detail: `${due.overdue ? 'Was due' : 'Due'} ${dateText(due.dueOn)}`,
  };
}

function saleRow(due: SaleDue, horseName: string, buyerName: string): DueRow {
  return {
    ...due,
    hash: keyHash(due.key),
    overdue: true,
    title: `Installment past due: ${horseName}`,
    detail: `${centsText(due.pastDueCents)} from ${buyerName}, due since ${dateText(due.since)}`,
  };
}

/**
 * What is due on `today` (the person's calendar date): care whose latest entry's next due date
 * is past or within 14 days, and sales with an installment past due (shared careDue and
 * salesPastDue). Overdue care first, then installments, then what is due soon. It reads every
 * care entry, sale and payment, so it runs where the document is (the data worker, through
 * PageData.loadDue), not on the page's main thread, unless the data layer is in the page;
 * a page of rows per request, so a write asked for meanwhile is not held up (read-by-key.ts).
 */
export async function loadDue(db: RanchDb, today: string): Promise<DueRow[]> {
  const [entries, sales, payments, corrections] = await Promise.all([
    readAllByKey(db.horseCare).then(flattenCare),
    readAllByKey(db.sales),
    allPayments(db, true),
    db.corrections.toArray(),
  ]);
  const { paidCents: paid, cancelled } = figuresMoney(saleMoneyBySale(payments, corrections));
  const care = careDue(entries, today);
  // [S17] A cancelled sale owes nothing.
  const owed = salesPastDue(
    sales.filter((sale) => !cancelled?.has(sale.id)),
    (id) => paid.get(id) ?? 0,
    today,
  );
  const horseIds = [...new Set([...care.map((due) => due.horseId), ...owed.map((due) => due.horseId)])];
  const [horses, buyers] = await Promise.all([db.horses.bulkGet(horseIds), db.buyers.bulkGet(owed.map((due) => due.buyerId))]);
  const horseName = new Map(horses.flatMap((horse) => (horse ? [[horse.id, horse.name] as const] : [])));
  const name = (id: string) => horseName.get(id) ?? 'Unknown horse';
  const careRows = care.map((due) => careRow(due, name(due.horseId)));
  const saleRows = owed.map((due, index) => {
    const buyer = buyers[index];
    return saleRow(due, name(due.horseId), buyer ? contactName(buyer) : 'Unknown buyer');
  });
  return [...careRows.filter((row) => row.overdue), ...saleRows, ...careRows.filter((row) => !row.overdue)];
}
