import type * as Y from 'yjs';
import { COLLECTIONS, type Conflict, type ConflictList } from '../../../shared/index.ts';
import type { ConflictRow, RanchDb } from './db.ts';
import type { SyncConnection } from './sync.ts';

/** How long after a remote update or an acknowledgement the list is fetched again (at most once per this). */
export const CONFLICT_REFRESH_MS = 1000;

const isSide = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { serverTime?: unknown }).serverTime === 'string';

/** What the screens can show of one listed conflict; anything else in the answer is left out. */
function isConflict(value: unknown): value is Conflict {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    typeof row.id === 'string' &&
    (COLLECTIONS as readonly unknown[]).includes(row.collection) &&
    typeof row.entityId === 'string' &&
    typeof row.field === 'string' &&
    typeof row.money === 'boolean' &&
    isSide(row.kept) &&
    isSide(row.other)
  );
}

/**
 * [T6] Fetches the open conflicts (`GET /api/conflicts`) into the device's cache: the rows
 * become the server's list, keeping this device's "answered" marks of those still listed.
 * Resolves 'offline' (not reached, or the session is gone: the cache stays as it was) or 'fetched'.
 */
export async function fetchConflicts(db: RanchDb): Promise<'fetched' | 'offline'> {
  let listed: Conflict[];
  try {
    const response = await fetch('/api/conflicts', { credentials: 'include' });
    if (!response.ok) return 'offline';
    const body = (await response.json()) as Partial<ConflictList> | null;
    if (!Array.isArray(body?.conflicts)) return 'offline';
    listed = body.conflicts.filter(isConflict);
  } catch {
    return 'offline';
  }
  await db.transaction('rw', db.conflicts, async () => {
    const answered = new Map<string, string | null>();
    for (const row of await db.conflicts.toArray()) answered.set(row.id, row.answeredAt);
    await db.conflicts.clear();
    await db.conflicts.bulkPut(listed.map((conflict): ConflictRow => ({ ...conflict, answeredAt: answered.get(conflict.id) ?? null })));
  });
  return 'fetched';
}

/** Someone answered the conflict on this device: it is hidden at once, until the server no longer lists it. */
export async function markAnswered(db: RanchDb, id: string): Promise<void> {
  await db.conflicts.update(id, { answeredAt: new Date().toISOString() });
}

/**
 * [T6] Keeps the cache current while the socket runs: fetched when it (re)syncs, and at most
 * once a second after updates from other devices arrive or the server acknowledges this
 * device's (an answer sent from here closes its conflict). Returns the function that stops it.
 */
export function startConflictRefresh(doc: Y.Doc, sync: SyncConnection, db: RanchDb, delayMs = CONFLICT_REFRESH_MS): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let again = false;
  const run = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await fetchConflicts(db);
    } catch {
      // The database closed under us (sign-out, Clear Local Data): nothing to keep.
    } finally {
      running = false;
      if (again) {
        again = false;
        void run();
      }
    }
  };
  const soon = () => {
    if (stopped || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void run();
    }, delayMs);
  };
  const onSync = (synced: boolean) => {
    if (synced) void run();
  };
  const onUpdate = (_update: Uint8Array, origin: unknown) => {
    if (origin === sync.provider) soon();
  };
  let acknowledged = sync.status.get().lastSyncedAt;
  const stopStatus = sync.status.subscribe(() => {
    const next = sync.status.get().lastSyncedAt;
    if (next === acknowledged) return;
    acknowledged = next;
    soon();
  });
  sync.provider.on('sync', onSync);
  doc.on('update', onUpdate);
  if (sync.provider.synced) void run();
  return () => {
    stopped = true;
    clearTimeout(timer);
    stopStatus();
    sync.provider.off('sync', onSync);
    doc.off('update', onUpdate);
  };
}
