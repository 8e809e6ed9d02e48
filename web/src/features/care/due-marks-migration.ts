import type { RanchDb } from '../../data/db.ts';
import { dueMarkKeys } from './due-marks.ts';

/** Where versions before the marks moved to the read database kept them (same format: comma-joined hashes). */
const legacyKeys = (userId: string) => ({ seen: `ranch.dueSeen.${userId}`, notified: `ranch.dueNotified.${userId}` });

/**
 * Moves a user's marks from localStorage into the read database's `meta` once, so a device
 * that updates neither announces again everything it already notified nor shows the dot for
 * what was seen. A mark the database already holds is newer and stays. Runs on the page:
 * the data worker has no localStorage. After the move the keys are gone, so later calls read
 * two missing keys and nothing else.
 */
export async function migrateDueMarks(db: RanchDb, userId: string): Promise<void> {
  const legacy = legacyKeys(userId);
  let stored: { seen: string | null; notified: string | null };
  try {
    stored = { seen: localStorage.getItem(legacy.seen), notified: localStorage.getItem(legacy.notified) };
  } catch {
    return;
  }
  if (stored.seen === null && stored.notified === null) return;
  const keys = dueMarkKeys(userId);
  await db.transaction('rw', db.meta, async () => {
    for (const mark of ['seen', 'notified'] as const) {
      const value = stored[mark];
      if (value !== null && (await db.meta.get(keys[mark])) === undefined) await db.meta.put({ key: keys[mark], value });
    }
  });
  localStorage.removeItem(legacy.seen);
  localStorage.removeItem(legacy.notified);
}
