import type * as Y from 'yjs';
import { collectionMap, readRecord, type Payment } from '../../../shared/index.ts';
import { InvalidEntities } from './invalid-entities.ts';
import type { SalePaymentsRow } from './sale-payments-row.ts';

/**
 * The read model keeps a sale's payments as ONE row (table `salePayments`), not a row per
 * payment: payments are only ever read by sale or all at once, and a ranch has ten times
 * as many payments as sales, so a first sync writes 5,000 rows instead of 50,000 (the
 * per-row cost of IndexedDB is what a first sync spends its time on; docs/web.md, Data).
 */
export { flattenPayments, type SalePaymentsRow } from './sale-payments-row.ts';

const byId = (a: Payment, b: Payment) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Which payments of the document belong to which sale, as the projection last read them,
 * so a change to a few payments rewrites only their sales' rows (both sales when a payment
 * moved from one to another, or was removed). Only valid payments (shared readRecord) are
 * kept, grouped by their validated `saleId`; an invalid one is left out of every row and
 * noted in `invalid`. Each payment is parsed once, when it changes, and kept as read.
 */
export class PaymentGroups {
  private readonly records = new Map<string, Payment>();
  private readonly bySale = new Map<string, Set<string>>();

  constructor(private readonly invalid: InvalidEntities = new InvalidEntities()) {}

  /** Takes in the current state of `paymentIds`; returns the keys of the sales whose rows changed. */
  touch(doc: Y.Doc, paymentIds: Iterable<string>): Set<string> {
    const payments = collectionMap(doc, 'payments');
    const touched = new Set<string>();
    for (const id of paymentIds) {
      const before = this.records.get(id);
      const after = this.read(id, payments.get(id));
      if (before) {
        touched.add(before.saleId);
        this.leave(id, before.saleId);
      }
      if (after) {
        touched.add(after.saleId);
        this.join(after);
      }
    }
    return touched;
  }

  /** Every payment in the index. */
  paymentIds(): IterableIterator<string> {
    return this.records.keys();
  }

  /** Every sale key that has payments. */
  keys(): IterableIterator<string> {
    return this.bySale.keys();
  }

  /** The row of `saleKey` as its payments were last touched; null when it has no valid payments. */
  row(saleKey: string): SalePaymentsRow | null {
    const ids = this.bySale.get(saleKey);
    if (!ids || ids.size === 0) return null;
    const payments: Payment[] = [];
    for (const id of ids) payments.push(this.records.get(id)!);
    return { saleId: saleKey, payments: payments.sort(byId) };
  }

  private read(id: string, value: unknown): Payment | undefined {
    if (value === undefined) {
      this.invalid.note('payments', id, null);
      return undefined;
    }
    const reading = readRecord('payments', id, value);
    this.invalid.note('payments', id, reading.valid ? null : reading.problem);
    return reading.valid ? (reading.record as unknown as Payment) : undefined;
  }

  private join(payment: Payment): void {
    this.records.set(payment.id, payment);
    let ids = this.bySale.get(payment.saleId);
    if (!ids) this.bySale.set(payment.saleId, (ids = new Set()));
    ids.add(payment.id);
  }

  private leave(id: string, saleKey: string): void {
    this.records.delete(id);
    const ids = this.bySale.get(saleKey);
    ids?.delete(id);
    if (ids?.size === 0) this.bySale.delete(saleKey);
  }
}
