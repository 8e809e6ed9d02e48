import type { Table } from 'dexie';
import type { RanchDb } from './db.ts';

/**
 * Adds one row to a table of the read database in a transaction of one request, committed
 * as it is made, and resolves once it has committed: how a page appends a write to the
 * outbox (outbox/outbox.ts), also while the data worker loads.
 *
 * During a start Chromium runs each request and each commit after whatever the data
 * worker's load asked for before it (long reads on a phone), so every round trip between
 * this thread and IndexedDB would wait for one (docs/web.md "The device outbox"). Dexie commits a transaction only once its requests have answered, so this one is
 * made on Dexie's own connection (`backendDB`) with IndexedDB's `commit()`. Nothing observes
 * these tables through Dexie: the host drains them when told, or at its load.
 */
export async function addAtOnce<Row>(db: RanchDb, table: Table<Row>, row: Omit<Row, 'seq'>): Promise<void> {
  // Not open yet, or closed: Dexie's own add opens it or refuses, as every other write does.
  if (!db.isOpen()) {
    await table.add(row as Row);
    return;
  }
  const transaction = db.backendDB().transaction(table.name, 'readwrite');
  await new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () => reject(transaction.error ?? new Error(`Nothing was stored in ${table.name}`));
    transaction.objectStore(table.name).add(row);
    transaction.commit();
  });
}
