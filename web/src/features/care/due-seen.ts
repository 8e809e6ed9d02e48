/**
 * [K4] [K7] Due items are remembered by their key's 32-bit hash (care and its due date, or a
 * sale's oldest unpaid installment), so a ranch with thousands of items due keeps a few bytes
 * each (a collision at worst hides one item's dot or notification). What was seen and what
 * was notified are kept per user in the read database (due-marks.ts).
 */

/** FNV-1a of the key, in base 36. */
export function keyHash(key: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** A due item's key, with its hash when the data layer computed it (load-due.ts). */
export type HashedKey = { key: string; hash?: string };

/** The item's hash: computed where what is due is read, or here. */
export const hashOf = (item: HashedKey): string => item.hash ?? keyHash(item.key);
