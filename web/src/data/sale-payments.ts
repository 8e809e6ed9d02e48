import * as Y from 'yjs';
import { collectionMap, readEntity, type EntityFields, type Payment } from '../../../shared/index.ts';

/**
 * The read model keeps a sale's payments as ONE row (table `salePayments`), not a row per
 * payment: payments are only ever read by sale or all at once, and a ranch has ten times
 * as many payments as sales, so a first sync writes 5,000 rows instead of 50,000 (the
 * per-row cost of IndexedDB is what a first sync spends its time on; docs/web.md, Data).
 */
export type SalePaymentsRow = { saleId: string; payments: Payment[] };

/** Group of payments whose `saleId` is not a string (invalid data another client wrote). */
const NO_SALE = '';

const saleKeyOf = (entity: unknown): string | undefined => {
  if (!(entity instanceof Y.Map)) return undefined;
  const saleId = entity.get('saleId');
  return typeof saleId === 'string' ? saleId : NO_SALE;
};

const byId = (a: EntityFields, b: EntityFields) => ((a.id as string) < (b.id as string) ? -1 : (a.id as string) > (b.id as string) ? 1 : 0);

/**
 * Which payments of the document belong to which sale, as the projection last wrote them,
 * so a change to a few payments rewrites only their sales' rows (both sales when a payment
 * moved from one to another, or was removed).
 */
export class PaymentGroups {
  private readonly saleOf = new Map<string, string>();
  private readonly bySale = new Map<string, Set<string>>();

  /** Takes in the current state of `paymentIds`; returns the keys of the sales whose rows changed. */
  touch(doc: Y.Doc, paymentIds: Iterable<string>): Set<string> {
    const payments = collectionMap(doc, 'payments');
    const touched = new Set<string>();
    for (const id of paymentIds) {
      const before = this.saleOf.get(id);
      const after = saleKeyOf(payments.get(id));
      if (before !== undefined) touched.add(before);
      if (after !== undefined) touched.add(after);
      if (before === after) continue;
      if (before !== undefined) this.leave(id, before);
      if (after !== undefined) this.join(id, after);
    }
    return touched;
  }

  /** Every payment in the index. */
  paymentIds(): IterableIterator<string> {
    return this.saleOf.keys();
  }

  /** Every sale key that has payments. */
  keys(): IterableIterator<string> {
    return this.bySale.keys();
  }

  /** The row of `saleKey` as the document has it now; null when it has no payments. */
  row(doc: Y.Doc, saleKey: string): SalePaymentsRow | null {
    const ids = this.bySale.get(saleKey);
    if (!ids || ids.size === 0) return null;
    const payments = collectionMap(doc, 'payments');
    const rows: EntityFields[] = [];
    for (const id of ids) {
      const entity = payments.get(id);
      if (entity instanceof Y.Map) rows.push(readEntity(entity));
    }
    return { saleId: saleKey, payments: rows.sort(byId) as unknown as Payment[] };
  }

  private join(id: string, saleKey: string): void {
    this.saleOf.set(id, saleKey);
    let ids = this.bySale.get(saleKey);
    if (!ids) this.bySale.set(saleKey, (ids = new Set()));
    ids.add(id);
  }

  private leave(id: string, saleKey: string): void {
    this.saleOf.delete(id);
    const ids = this.bySale.get(saleKey);
    ids?.delete(id);
    if (ids?.size === 0) this.bySale.delete(saleKey);
  }
}

/** The payments of the given rows (missing rows: sales without payments), in one list. */
export function flattenPayments(rows: readonly (SalePaymentsRow | undefined)[]): Payment[] {
  return rows.flatMap((row) => row?.payments ?? []);
}
