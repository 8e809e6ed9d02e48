import 'fake-indexeddb/auto';
import type * as Y from 'yjs';
import { openRanchDb } from '../../../web/src/data/db.ts';
import { startProjection } from '../../../web/src/data/projection.ts';
import { flattenCare } from '../../../web/src/data/horse-care-row.ts';
import { flattenPayments } from '../../../web/src/data/sale-payments-row.ts';
import { COLLECTIONS } from '../../../shared/index.ts';
import { canonicalRow, type Records } from './records.ts';

let opened = 0;

/**
 * The read model a fresh device builds from `doc` with the app's own projection
 * (web/src/data/projection.ts into the Dexie tables of web/src/data/db.ts, on
 * fake-indexeddb), as records among `only`. The database is deleted afterwards.
 */
export async function deviceRecords(doc: Y.Doc, only: ReadonlySet<string>): Promise<Records> {
  const db = openRanchDb(`fuzz-device-${process.pid}-${++opened}`);
  const projection = startProjection(doc, db, Promise.resolve());
  try {
    await projection.idle();
    const records: Records = new Map();
    for (const collection of COLLECTIONS) {
      // Payments are kept by sale and care entries by horse (web/src/data/record-groups.ts).
      const rows: Record<string, unknown>[] =
        collection === 'payments'
          ? flattenPayments(await db.salePayments.toArray())
          : collection === 'careEntries'
            ? flattenCare(await db.horseCare.toArray())
            : await db.table(collection).toArray();
      for (const row of rows) {
        const id = String(row.id).toLowerCase();
        if (only.has(id)) records.set(`${collection}/${String(row.id)}`, canonicalRow(collection, row));
      }
    }
    return records;
  } finally {
    projection.stop();
    await db.delete();
  }
}
