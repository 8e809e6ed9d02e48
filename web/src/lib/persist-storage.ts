const ASKED_KEY = 'ranch.storagePersistAsked';

/**
 * Asks the browser once to keep this site's storage under pressure (the document, the
 * outbox): otherwise a phone low on space may evict IndexedDB with unsent changes in it.
 * Chromium decides silently from engagement; Firefox may ask the user, hence only once.
 */
export async function askPersistentStorage(storage: StorageManager | undefined = navigator.storage): Promise<boolean | null> {
  if (!storage?.persist || !storage.persisted) return null;
  try {
    if (await storage.persisted()) return true;
    if (localStorage.getItem(ASKED_KEY)) return false;
    localStorage.setItem(ASKED_KEY, new Date().toISOString());
    return await storage.persist();
  } catch {
    return null;
  }
}
