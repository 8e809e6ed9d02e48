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

export function writeKeys(storageKey: string, keys: Iterable<string>): void {
  try {
    localStorage.setItem(storageKey, [...new Set([...keys].map(keyHash))].join(','));
  } catch {
    // Storage full or refused: the dot comes back at the next start, nothing worse.
  }
}

const seenKey = (userId: string) => `ranch.dueSeen.${userId}`;

export const readDueSeen = (userId: string): SeenKeys => readKeys(seenKey(userId));
export const writeDueSeen = (userId: string, keys: Iterable<string>): void => writeKeys(seenKey(userId), keys);

/** Whether any of `keys` was not seen. */
export function hasNewDue(keys: Iterable<string>, seen: SeenKeys): boolean {
  for (const key of keys) if (!seen.has(keyHash(key))) return true;
  return false;
}
