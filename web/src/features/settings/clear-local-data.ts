import { DOC_DB_NAME } from '../../data/doc-db-name.ts';
import { READ_DB_NAME } from '../../data/db.ts';
import { sealWrites } from '../../data/sealed-writes.ts';

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
 * Said to the app's other tabs once this one has cleared the device: they reload, so they
 * show no ranch data any more and start a fresh data host (the one that held the document
 * closed itself, docs/web.md "Several tabs, one host").
 */
export const DEVICE_CLEARED_CHANNEL = 'ranch-device-cleared';
/** This tab, so that it does not take its own message for another's (every channel object hears the others). */
const THIS_TAB = Math.random().toString(36).slice(2);

/** The service worker's copy of the app itself (workbox-precaching), not data. */
const isAppShellCache = (name: string) => name.startsWith('workbox-precache');

/**
 * [V7] "clears all of this browser's storage": localStorage, the document ('ranch-doc') and read
 * model ('ranch-data') databases, and the service worker's caches. Sync stops first, so
 * nothing is written back; the page keeps what it shows until it is refreshed.
 * Signing out ([A11]) clears the same but keeps the app's own files (`keepAppShell`), so the
 * next person can still open the app with no signal.
 */
export async function clearLocalData(
  data: OpenLocalData,
  { keepAppShell = false, tab = THIS_TAB }: { keepAppShell?: boolean; tab?: string } = {},
): Promise<void> {
  // The page's own writes too (an intent appended to the outbox, a bell's marks).
  sealWrites(data.db);
  await data.clearDocument();
  // Reopens empty, for reading only, so the screens still on display do not fail before the refresh.
  await data.db.delete({ disableAutoOpen: false });
  await Promise.all(LOCAL_DATABASES.map(deleteDatabase));
  try {
    localStorage.clear();
  } catch {
    // Storage disabled: nothing there to clear.
  }
  if (typeof caches !== 'undefined') {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => !(keepAppShell && isAppShellCache(name))).map((name) => caches.delete(name)));
  }
  if (typeof BroadcastChannel !== 'undefined') {
    const others = new BroadcastChannel(DEVICE_CLEARED_CHANNEL);
    others.postMessage({ cleared: tab });
    others.close();
  }
}

/** Reloads this tab when another tab has cleared the device; returns how to stop listening. */
export function reloadWhenClearedElsewhere(reload: () => void = () => location.reload(), tab = THIS_TAB): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(DEVICE_CLEARED_CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    if ((event.data as { cleared?: unknown })?.cleared !== tab) reload();
  };
  return () => channel.close();
}
