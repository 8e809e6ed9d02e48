/** y-indexeddb's object stores (node_modules/y-indexeddb/src/y-indexeddb.js). */
const UPDATES = 'updates';
const CUSTOM = 'custom';

/**
 * Appends Yjs updates to the updates y-indexeddb keeps for a document (database `dbName`,
 * ydoc.ts DOC_DB_NAME for the ranch), in one transaction, and resolves once it has
 * committed: from then on the updates are on the device, whoever holds the document. The
 * outbox's drain stores the changes of the intents it applied this way before it removes
 * them (outbox/drain.ts); it calls this only once its own load is over, since y-indexeddb's
 * load holds the store (below) and this would wait for it.
 *
 * Why this is safe next to a y-indexeddb instance working on the same database (y-indexeddb
 * 9.0.12, `fetchUpdates` and `storeState`):
 * - y-indexeddb reads the updates in one readwrite transaction on `updates` (getAll from
 *   `_dbref`, apply, getLastKey, count), and IndexedDB runs overlapping readwrite
 *   transactions one after the other, so ours is wholly before or wholly after it.
 * - Before: its getAll returns our update, and the load applies it.
 * - After: our key is above the last key it saw, so at or above its new `_dbref`. The next
 *   load (a fresh instance starts from key 0) applies it, and so does the next compaction
 *   (`storeState` re-reads from `_dbref` first, then deletes only keys below the new
 *   `_dbref`, all of which it has just applied).
 * - Applying an update a document already has changes nothing in Yjs, so the host applying
 *   the same update again (its own y-indexeddb stores it once more when it is applied as a
 *   local write) is harmless.
 *
 * The database is opened the way y-indexeddb creates it when it does not exist yet, and
 * closed right after (and on `versionchange`), so Clear Local Data can still delete it.
 */
export function appendStoredUpdates(dbName: string, updates: readonly Uint8Array[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onupgradeneeded = () => {
      open.result.createObjectStore(UPDATES, { autoIncrement: true });
      open.result.createObjectStore(CUSTOM);
    };
    open.onerror = () => reject(open.error ?? new Error(`Could not open ${dbName}`));
    open.onsuccess = () => {
      const db = open.result;
      db.onversionchange = () => db.close();
      const fail = (error: unknown) => {
        db.close();
        reject(error instanceof Error || error instanceof DOMException ? error : new Error(`Could not store the update in ${dbName}`));
      };
      try {
        const transaction = db.transaction(UPDATES, 'readwrite');
        transaction.oncomplete = () => {
          db.close();
          resolve();
        };
        transaction.onabort = () => fail(transaction.error);
        const store = transaction.objectStore(UPDATES);
        for (const update of updates) store.add(update);
      } catch (error) {
        fail(error);
      }
    };
  });
}
