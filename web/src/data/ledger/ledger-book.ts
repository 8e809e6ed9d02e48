import { RECORD_FIELDS } from '../../../../shared/schemas/records.ts';
import type { RanchDb } from '../db.ts';
import type { LedgerReadTable } from './ledger-rows.ts';

type Row = Record<string, unknown>;

/** One entry a pass of the outbox recorded: the intent's new id, its table and the record it pushes. */
export type RecordedEntry = { table: LedgerReadTable; id: string; record: Row };

/**
 * What the outbox's drain knows of the ledger's records while it applies a pass of intents
 * (docs/architecture.md "The device's write path"): the sales, cancellations and voided
 * payments the read database holds (pulled, waiting on this device, or a document's of the
 * old layout), read before the pass, and the entries the pass records, in order, so a
 * payment may name a sale recorded earlier in the same pass. Synchronous, as the
 * repositories' writes are.
 */
export type LedgerBook = {
  sale(id: string): Row | undefined;
  payment(id: string): Row | undefined;
  /** The sales that name the horse or buyer (cancelled ones too: a cancelled sale is kept). */
  salesNaming(field: 'horseId' | 'buyerId', id: string): number;
  /** Whether another sale of the horse than `saleId` stands (named by no cancellation). */
  soldByAnother(horseId: unknown, saleId: string): boolean;
  /** Records an entry: later intents of the pass see it. */
  record(table: LedgerReadTable, id: string, fields: Row): void;
  readonly recorded: readonly RecordedEntry[];
};

/** The intents whose pass needs the ledger's records read first. */
const NEEDS_BOOK: ReadonlySet<string> = new Set([
  'payments.create',
  'corrections.voidPayment',
  'corrections.cancelSale',
  'corrections.refund',
  'horses.remove',
  'buyers.remove',
]);

/** The record an entry pushes: its table's fields ([Y3] RECORD_FIELDS), a missing one null. */
export function entryRecord(table: LedgerReadTable, fields: Row): Row {
  return Object.fromEntries(RECORD_FIELDS[table].map((field) => [field, fields[field] ?? null]));
}

/** A book for the intents `calls` (`repository.method` each), reading only what they need. */
export async function readLedgerBook(db: RanchDb, calls: readonly { key: string; args: unknown[] }[]): Promise<LedgerBook> {
  const needed = calls.some((call) => NEEDS_BOOK.has(call.key));
  const sales = new Map<string, Row>(needed ? (await db.sales.toArray()).map((row) => [row.id, row as Row]) : []);
  const corrections = needed ? await db.corrections.toArray() : [];
  const cancelled = new Set<unknown>(corrections.filter((row) => row.kind === 'cancel').map((row) => row.saleId));
  const payments = new Map<string, Row>();
  const voided = calls.filter((call) => call.key === 'corrections.voidPayment').map((call) => call.args[0]);
  for (const id of voided) {
    if (typeof id !== 'string' || payments.has(id)) continue;
    const row = (await db.payments.get(id)) ?? (await documentPayment(db, id));
    if (row) payments.set(id, row as Row);
  }
  const recorded: RecordedEntry[] = [];
  return {
    sale: (id) => sales.get(id),
    payment: (id) => payments.get(id),
    salesNaming: (field, id) => [...sales.values()].filter((sale) => sale[field] === id).length,
    soldByAnother: (horseId, saleId) =>
      [...sales.entries()].some(([id, sale]) => id !== saleId && sale.horseId === horseId && !cancelled.has(id)),
    record(table, id, fields) {
      recorded.push({ table, id, record: entryRecord(table, fields) });
      if (table === 'sales') sales.set(id, { id, ...fields });
      if (table === 'payments') payments.set(id, { id, ...fields });
      if (table === 'corrections' && fields.kind === 'cancel') cancelled.add(fields.saleId);
    },
    recorded,
  };
}

/** A payment of a document of the old layout (kept by sale, salePayments): found by scanning, as a void of one is rare. */
async function documentPayment(db: RanchDb, id: string): Promise<Row | undefined> {
  let found: Row | undefined;
  await db.salePayments.each((group) => {
    found ??= group.payments.find((payment) => payment.id === id) as Row | undefined;
  });
  return found;
}
