import 'fake-indexeddb/auto';
import type * as Y from 'yjs';
import { openRanchDb } from '../../../web/src/data/db.ts';
import { flattenCare } from '../../../web/src/data/horse-care-row.ts';
import { allPayments } from '../../../web/src/data/ledger/read-payments.ts';
import { pullLedger, type LedgerPullOptions } from '../../../web/src/data/ledger/pull.ts';
import { startProjection } from '../../../web/src/data/projection.ts';
import { COLLECTIONS } from '../../../shared/index.ts';
import { canonicalRow, type Records } from './records.ts';

let opened = 0;

/** A read row without what the device keeps beside a ledger record (ledgerSeq, flags): the record. */
const recordOf = ({ ledgerSeq: _seq, flags: _flags, ...record }: Record<string, unknown>) => record;

/**
 * The read model a fresh device builds from `doc` and the ledger with the app's own code
 * (web/src/data/projection.ts and ledger/pull.ts into the Dexie tables of web/src/data/db.ts,
 * on fake-indexeddb), as records among `only`. The database is deleted afterwards.
 */
export async function deviceRecords(doc: Y.Doc, only: ReadonlySet<string>, ledger: LedgerPullOptions): Promise<Records> {
  const db = openRanchDb(`fuzz-device-${process.pid}-${++opened}`);
  const projection = startProjection(doc, db, Promise.resolve());
  try {
    await projection.idle();
    const pulled = await pullLedger(db, ledger);
    if (pulled.kind !== 'pulled') throw new Error('The device could not pull the ledger');
    const records: Records = new Map();
    for (const collection of COLLECTIONS) {
      // Care entries are kept by horse (web/src/data/record-groups.ts); payments are read from both tables.
      const rows: Record<string, unknown>[] =
        collection === 'payments'
          ? await allPayments(db)
          : collection === 'careEntries'
            ? flattenCare(await db.horseCare.toArray())
            : await db.table(collection).toArray();
      for (const row of rows) {
        const id = String(row.id).toLowerCase();
        if (only.has(id)) records.set(`${collection}/${String(row.id)}`, canonicalRow(collection, recordOf(row)));
      }
    }
    return records;
  } finally {
    projection.stop();
    await db.delete();
  }
}
