import * as Y from 'yjs';
import { IndexeddbPersistence } from 'y-indexeddb';
import { DOC_DB_NAME } from './doc-db-name.ts';

export { DOC_DB_NAME };

/** What callers need of y-indexeddb; valid before the document has started loading. */
export type DocPersistence = {
  clearData(): Promise<void>;
  destroy(): Promise<void>;
  /** The epoch of the server's document this one holds state of (docs/sync-rules.md "Document epochs"); null: none recorded. */
  readEpoch(): Promise<string | null>;
  writeEpoch(epoch: string): Promise<void>;
};

/** Kept in y-indexeddb's own key-value store, so it goes with the document it describes. */
const EPOCH_KEY = 'epoch';

export type LocalDoc = {
  doc: Y.Doc;
  persistence: DocPersistence;
  /** Resolves once the updates stored on this device are applied to `doc`. */
  loaded: Promise<void>;
};

/**
 * The device's copy of the shared document. Every change (local or from the server) is
 * stored by y-indexeddb, so the app opens with all data when offline.
 *
 * Loading starts when `start` resolves. At ranch scale applying the stored updates holds
 * the main thread for seconds, and screens read Dexie, not the doc: the app passes a
 * promise that resolves once the first rows are on screen (main.tsx). Anything written to
 * `doc` before then is stored when loading starts (y-indexeddb stores the doc's state
 * first), but writes are only offered once `loaded` resolved (useCanWrite).
 */
export function openLocalDoc(dbName: string = DOC_DB_NAME, start: Promise<unknown> = Promise.resolve()): LocalDoc {
  const doc = new Y.Doc();
  let closed = false;
  let loadStart = 0;
  const attached = start.then(() => {
    loadStart = performance.now();
    return new IndexeddbPersistence(dbName, doc);
  });
  const loaded = attached
    .then((persistence) => persistence.whenSynced)
    .then(() => void performance.measure('doc:load from IndexedDB', { start: loadStart, end: performance.now() }));
  const persistence: DocPersistence = {
    clearData: async () => {
      const persistence = await attached;
      if (closed) {
        indexedDB.deleteDatabase(dbName); // as y-indexeddb's clearData, without destroying it twice
        return;
      }
      closed = true; // clearData destroys it: a later destroy() has nothing to do
      await persistence.clearData();
    },
    readEpoch: async () => {
      const value: unknown = await (await attached).get(EPOCH_KEY);
      return typeof value === 'string' ? value : null;
    },
    writeEpoch: async (epoch) => {
      await (await attached).set(EPOCH_KEY, epoch);
    },
    destroy: async () => {
      if (closed) return;
      closed = true;
      await (await attached).destroy();
    },
  };
  return { doc, persistence, loaded };
}
