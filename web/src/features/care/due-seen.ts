/**
 * [K4] What the person had seen due when they last opened the bell, kept on this device per
 * user: the dot means "something new is due" — an item whose key (care and its due date, or
 * a sale's oldest unpaid installment) was not listed then. Keys are kept as 32-bit hashes, so
 * a ranch with thousands of items due stores a few bytes each (a collision at worst hides
 * one item's dot).
 */
export type SeenKeys = ReadonlySet<string>;

/** FNV-1a of the key, in base 36. */
export function keyHash(key: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

export function readKeys(storageKey: string): Set<string> {
  try {
    const stored = localStorage.getItem(storageKey);
    return new Set(stored ? stored.split(',') : []);
  } catch {
    return new Set();
  }
}

/** A due item's key, with its hash when the data layer computed it (load-due.ts). */
export type HashedKey = { key: string; hash?: string };

/** The item's hash: computed where what is due is read (the data worker), or here. */
export const hashOf = (item: HashedKey): string => item.hash ?? keyHash(item.key);

/** Stores the hashes, each once; leaves storage alone when they are what it holds already. */
export function writeHashes(storageKey: string, hashes: Iterable<string>): void {
  try {
    const value = [...new Set(hashes)].join(',');
    if (localStorage.getItem(storageKey) !== value) localStorage.setItem(storageKey, value);
  } catch {
    // Storage full or refused: the dot comes back at the next start, nothing worse.
  }
}

const seenKey = (userId: string) => `ranch.dueSeen.${userId}`;

export const readDueSeen = (userId: string): SeenKeys => readKeys(seenKey(userId));
export const writeDueSeen = (userId: string, items: readonly HashedKey[]): void => writeHashes(seenKey(userId), items.map(hashOf));

/** Whether any of `items` was not seen. */
export function hasNewDue(items: Iterable<HashedKey>, seen: SeenKeys): boolean {
  for (const item of items) if (!seen.has(hashOf(item))) return true;
  return false;
}
