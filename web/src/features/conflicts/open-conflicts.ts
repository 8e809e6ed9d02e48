import { liveQuery, type Subscription } from 'dexie';
import { useCallback, useSyncExternalStore } from 'react';
import type { Collection } from '../../../../shared/index.ts';
import type { ConflictRow, RanchDb } from '../../data/db.ts';
import { useRanchData } from '../../data/context.tsx';

/** Every open conflict the device holds, oldest first, and each record's by `collection:id`. */
export type OpenConflicts = { all: ConflictRow[]; byRecord: Map<string, ConflictRow[]> };

const recordKey = (collection: Collection, id: string) => `${collection}:${id}`;

/** Oldest first; ids made the same millisecond by their number. */
const byDetected = (a: ConflictRow, b: ConflictRow) =>
  a.detectedAt.localeCompare(b.detectedAt) || a.id.length - b.id.length || a.id.localeCompare(b.id);

function grouped(rows: ConflictRow[]): OpenConflicts {
  const all = rows.filter((row) => !row.answeredAt).sort(byDetected);
  const byRecord = new Map<string, ConflictRow[]>();
  for (const row of all) {
    const key = recordKey(row.collection, row.entityId);
    const list = byRecord.get(key);
    if (list) list.push(row);
    else byRecord.set(key, [row]);
  }
  return { all, byRecord };
}

type Store = { subscribe: (listener: () => void) => () => void; get: () => OpenConflicts | undefined };

/**
 * [T6] One live query of the `conflicts` table per database, shared by every marker on
 * screen (a list's rows, the bell): the table holds the open conflicts only, so it is read
 * whole, and a row's marker is a map look-up, not a query of its own. Runs while something
 * listens.
 */
const stores = new WeakMap<RanchDb, Store>();

function storeOf(db: RanchDb): Store {
  let store = stores.get(db);
  if (store) return store;
  const listeners = new Set<() => void>();
  let value: OpenConflicts | undefined;
  let subscription: Subscription | undefined;
  store = {
    subscribe(listener) {
      listeners.add(listener);
      subscription ??= liveQuery(() => db.conflicts.toArray()).subscribe({
        next: (rows) => {
          value = grouped(rows);
          for (const each of listeners) each();
        },
        // The database closed (sign-out, Clear Local Data): the last rows read stay.
        error: () => {},
      });
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0) return;
        subscription?.unsubscribe();
        subscription = undefined;
        value = undefined;
      };
    },
    get: () => value,
  };
  stores.set(db, store);
  return store;
}

/** [T6] The open conflicts this device holds, without those answered here; undefined until read. */
export function useOpenConflictList(): OpenConflicts | undefined {
  const store = storeOf(useRanchData().db);
  return useSyncExternalStore(store.subscribe, store.get);
}

const NONE: ConflictRow[] = [];

/** [T6] One record's open conflicts (none until read): re-renders only when they change. */
export function useRecordConflictRows(collection: Collection, id: string): ConflictRow[] {
  const store = storeOf(useRanchData().db);
  const get = useCallback(() => store.get()?.byRecord.get(recordKey(collection, id)) ?? NONE, [store, collection, id]);
  return useSyncExternalStore(store.subscribe, get);
}
