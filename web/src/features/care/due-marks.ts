import type { RanchDb } from '../../data/db.ts';
import type { DueRow } from './load-due.ts';
import { hashOf } from './due-seen.ts';

/** More new items than this at once make one notification that counts them ([K7]). */
export const ONE_BY_ONE = 3;

/** The read database's `meta` rows of one user's marks: comma-joined key hashes (due-seen.ts). */
export const dueMarkKeys = (userId: string) => ({ seen: `dueSeen.${userId}`, notified: `dueNotified.${userId}` });

/** Who asks for what is due, with what only the page knows: whether it may notify ([V3]) and Maintenance Alerts. */
export type DueUser = { id: string; notify: boolean; maintenanceAlerts: boolean };

/**
 * What the bell needs besides the rows it shows, whatever the number of items due:
 * `hashes`, every item's hash as one string (what the page marks seen when the panel shows
 * the list); `newDue`, whether anything is due that was not seen (the dot); `fresh`, the first
 * items to announce and `freshCount`, how many there are.
 */
export type DueMarks = { hashes: string; newDue: boolean; fresh: DueRow[]; freshCount: number };

const hashSet = (value: unknown): Set<string> => new Set(typeof value === 'string' && value !== '' ? value.split(',') : []);

/**
 * Compares what is due with what `user` saw and was notified of, where the list is read (the
 * data worker): the page gets a flag, a few rows and one string, not thousands of items.
 * Items newly due are taken as notified in the same transaction, so two tabs never announce
 * the same item; everything due is remembered as notified even when notifications are off, so
 * turning them on later brings no burst of what was already due ([K7]).
 */
export function dueMarks(db: RanchDb, rows: readonly DueRow[], user: DueUser): Promise<DueMarks> {
  const hashes = rows.map(hashOf);
  const joined = [...new Set(hashes)].join(',');
  const keys = dueMarkKeys(user.id);
  return db.transaction('rw', db.meta, async () => {
    const [seenRow, notifiedRow] = await db.meta.bulkGet([keys.seen, keys.notified]);
    const seen = hashSet(seenRow?.value);
    const notified = hashSet(notifiedRow?.value);
    const fresh = user.notify
      ? rows.filter((row, index) => !notified.has(hashes[index]!) && (row.type === 'sale' || user.maintenanceAlerts))
      : [];
    // Only what is still due is remembered; left alone when nothing changed (a recheck every 500 ms
    // in a sync). No row and nothing due are the same: a device cleared at sign-out, whose
    // screens run on for a moment over the emptied database, must not get a row back.
    if ((notifiedRow?.value ?? '') !== joined) await db.meta.put({ key: keys.notified, value: joined });
    return {
      hashes: joined,
      newDue: hashes.some((hash) => !seen.has(hash)),
      fresh: fresh.slice(0, ONE_BY_ONE),
      freshCount: fresh.length,
    };
  });
}

/** The bell's panel listed `hashes` (DueMarks.hashes): they are what `userId` has seen. One string, written by the page. */
export function markDueSeen(db: RanchDb, userId: string, hashes: string): Promise<void> {
  const key = dueMarkKeys(userId).seen;
  return db.transaction('rw', db.meta, async () => {
    if ((await db.meta.get(key))?.value !== hashes) await db.meta.put({ key, value: hashes });
  });
}
