import * as Y from 'yjs';
import { IndexeddbPersistence } from 'y-indexeddb';

/** IndexedDB database that y-indexeddb keeps the `ranch` document's updates in. */
export const DOC_DB_NAME = 'ranch-doc';

export type LocalDoc = {
  doc: Y.Doc;
  persistence: IndexeddbPersistence;
  /** Resolves once the updates stored on this device are applied to `doc`. */
  loaded: Promise<void>;
};

/**
 * The device's copy of the shared document. Every change (local or from the server) is
 * stored by y-indexeddb, so the app opens with all data when offline.
 */
export function openLocalDoc(dbName: string = DOC_DB_NAME): LocalDoc {
  const doc = new Y.Doc();
  const persistence = new IndexeddbPersistence(dbName, doc);
  const loaded = persistence.whenSynced.then(() => undefined);
  return { doc, persistence, loaded };
}
