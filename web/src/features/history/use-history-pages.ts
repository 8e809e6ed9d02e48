import { useEffect, useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { HistoryChange } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { fetchHistory } from './use-history.ts';

export type HistoryPagesView = {
  /** Newest first, every page's changes once; undefined until the cache was read. */
  changes: HistoryChange[] | undefined;
  /** A page could not be fetched: what is shown is what the device last fetched. */
  offline: boolean;
  /** How many changes the last page held (a full page means older ones may exist). */
  lastPageSize: number;
};

/**
 * [T7] Several pages of a history (`paths` under /api/history/), each kept in the device's
 * cache like one record's history (use-history.ts): fetched when shown and when the device
 * comes back online, read from the cache offline.
 */
export function useHistoryPages(paths: readonly string[]): HistoryPagesView {
  const { db } = useRanchData();
  const key = paths.join('\n');
  const cached = useLiveQuery(() => db.historyCache.bulkGet(key.split('\n')), [db, key]);
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    let live = true;
    const load = () =>
      void Promise.all(key.split('\n').map((path) => fetchHistory(db, path))).then(
        (outcomes) => live && setOffline(outcomes.includes('offline')),
        (error: unknown) => live && console.error('Could not keep the history fetched', error),
      );
    load();
    window.addEventListener('online', load);
    return () => {
      live = false;
      window.removeEventListener('online', load);
    };
  }, [db, key]);
  // The same array until a page changes, so the screen's order and search are not redone at each render.
  const changes = useMemo(() => cached && uniqueChanges(cached), [cached]);
  return { changes, offline, lastPageSize: cached?.at(-1)?.changes.length ?? 0 };
}

/** Every page's changes once, in the pages' order. */
function uniqueChanges(pages: readonly ({ changes: HistoryChange[] } | undefined)[]): HistoryChange[] {
  const seen = new Set<string>();
  const changes: HistoryChange[] = [];
  for (const page of pages) {
    for (const change of page?.changes ?? []) {
      if (seen.has(change.id)) continue;
      seen.add(change.id);
      changes.push(change);
    }
  }
  return changes;
}
