import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { COLLECTIONS, REFERENCES, type Collection, type HistoryChange, type HistoryPage } from '../../../../shared/index.ts';
import type { RanchDb } from '../../data/db.ts';
import { useRanchData } from '../../data/context.tsx';
import { ApiError, getJson } from '../../lib/api.ts';
import type { ReferenceNames } from './history-text.ts';

/** Fetched histories kept for reading offline; the oldest fetched go first beyond this. */
const KEPT = 200;

/**
 * Fetches a history (`path` under /api/history/) and keeps it in the device's cache. Resolves
 * 'fetched', 'offline' (the server could not be reached: the cache stays as it was) or
 * 'unknown' (the server has no such record yet: made here and not sent, or never there).
 */
/** What the History lines read of one change; a row without it is left out, never shown half. */
function isHistoryChange(value: unknown): value is HistoryChange {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    typeof row.id === 'string' &&
    (COLLECTIONS as readonly unknown[]).includes(row.collection) &&
    typeof row.entityId === 'string' &&
    (row.kind === 'create' || row.kind === 'update' || row.kind === 'delete') &&
    typeof row.field === 'string' &&
    typeof row.serverTime === 'string'
  );
}

export async function fetchHistory(db: RanchDb, path: string): Promise<'fetched' | 'offline' | 'unknown'> {
  let page: HistoryPage | null;
  try {
    page = await getJson<HistoryPage>(`/api/history/${path}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return 'unknown';
    return 'offline';
  }
  if (!Array.isArray(page?.changes)) return 'offline';
  const changes = page.changes.filter(isHistoryChange);
  await db.historyCache.put({ key: path, changes, fetchedAt: new Date().toISOString() });
  const count = await db.historyCache.count();
  if (count > KEPT) {
    const oldest = await db.historyCache
      .orderBy('fetchedAt')
      .limit(count - KEPT)
      .primaryKeys();
    await db.historyCache.bulkDelete(oldest);
  }
  return 'fetched';
}

export type HistoryView = {
  /** Newest first; undefined until the cache was read. */
  changes: HistoryChange[] | undefined;
  /** The server was not reached: what is shown is what the device last fetched. */
  offline: boolean;
};

/** [T3] A history as last fetched, fetched again whenever shown and when the device comes back online. */
export function useHistory(path: string): HistoryView {
  const { db } = useRanchData();
  const cached = useLiveQuery(async () => (await db.historyCache.get(path)) ?? null, [db, path]);
  const [outcome, setOutcome] = useState<'loading' | 'fetched' | 'offline' | 'unknown'>('loading');
  useEffect(() => {
    let live = true;
    const load = () =>
      void fetchHistory(db, path).then(
        (result) => live && setOutcome(result),
        // Storing it failed: the database closed meanwhile (sign-out, Clear Local Data, the
        // screen gone) is nothing to tell; anything else is logged while it is shown.
        (error: unknown) => live && console.error('Could not keep the history fetched', error),
      );
    load();
    window.addEventListener('online', load);
    return () => {
      live = false;
      window.removeEventListener('online', load);
    };
  }, [db, path]);
  if (cached === undefined) return { changes: undefined, offline: false };
  return {
    changes: outcome === 'unknown' ? [] : (cached?.changes ?? (outcome === 'loading' ? undefined : [])),
    offline: outcome === 'offline',
  };
}

const nameOf = (row: Record<string, unknown> | undefined): string | undefined => {
  if (!row) return undefined;
  if (typeof row.name === 'string') return row.name;
  const full = [row.firstName, row.lastName].filter((part) => typeof part === 'string' && part).join(' ');
  return full || undefined;
};

/** Values whose referred records are named: what a history change or a conflict holds. */
type NamedValues = Pick<HistoryChange, 'collection' | 'field' | 'before' | 'after'>[];

/** The names of the records the changes refer to (breeds, suppliers, horses …), from what the device holds. */
export function useReferenceNames(changes: NamedValues | undefined): ReferenceNames {
  return useNamesRead(changes).read?.names ?? new Map();
}

/** The same, undefined until read for these very values (so a screen need not show 'a removed record' meanwhile). */
export function useReferenceNamesRead(changes: NamedValues | undefined): ReferenceNames | undefined {
  const { key, read } = useNamesRead(changes);
  return read?.key === key ? read.names : undefined;
}

/** The names last read, and for which values (a live query keeps its last answer while it reads for new ones). */
function useNamesRead(changes: NamedValues | undefined): { key: string; read: { key: string; names: ReferenceNames } | undefined } {
  const { db } = useRanchData();
  const wanted = new Map<Collection, Set<string>>();
  for (const change of changes ?? []) {
    const target = REFERENCES[change.collection]?.[change.field];
    if (!target || target === 'sales') continue;
    for (const value of [change.before, change.after]) {
      if (typeof value === 'string') wanted.set(target, (wanted.get(target) ?? new Set()).add(value));
    }
  }
  const key = [...wanted].map(([collection, ids]) => `${collection}:${[...ids].sort().join(',')}`).join(';');
  const read = useLiveQuery(async () => {
    const names: ReferenceNames = new Map();
    for (const [collection, ids] of wanted) {
      const rows = await db.table<Record<string, unknown>, string>(collection).bulkGet([...ids]);
      rows.forEach((row) => {
        const name = nameOf(row);
        if (row && name) names.set(String(row.id), name);
      });
    }
    return { key, names };
  }, [db, key]);
  return { key, read };
}
