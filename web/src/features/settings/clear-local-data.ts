import { DOC_DB_NAME } from '../../data/ydoc.ts';
import { READ_DB_NAME } from '../../data/db.ts';

/** Every IndexedDB database the app keeps. */
export const LOCAL_DATABASES = [DOC_DB_NAME, READ_DB_NAME] as const;

/** The parts of the running data layer that hold the databases open. */
export type OpenLocalData = {
  /** Stops syncing and empties the stored document (where the document is: this thread or the data worker). */
  clearDocument(): Promise<void>;
  db: { delete(options?: { disableAutoOpen: boolean }): Promise<void> };
};

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => resolve();
    request.onblocked = () => resolve();
  });
}

/**
 * [V7] "clears all of this browser's storage": localStorage, the document ('ranch-doc') and read
 * model ('ranch-data') databases, and the service worker's caches. Sync stops first, so
 * nothing is written back; the page keeps what it shows until it is refreshed.
 */
export async function clearLocalData(data: OpenLocalData): Promise<void> {
  await data.clearDocument();
  // Reopens empty, so the screens still on display do not fail before the refresh.
  await data.db.delete({ disableAutoOpen: false });
  await Promise.all(LOCAL_DATABASES.map(deleteDatabase));
  try {
    localStorage.clear();
  } catch {
    // Storage disabled: nothing there to clear.
  }
  if (typeof caches !== 'undefined') {
    const names = await caches.keys();
    await Promise.all(names.map((name) => caches.delete(name)));
  }
}
