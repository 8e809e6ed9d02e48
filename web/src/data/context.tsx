import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { PageData } from './page-data.ts';
import type { SyncStatus } from './sync.ts';

const DataContext = createContext<PageData | null>(null);

export function DataProvider({ data, children }: { data: PageData; children: ReactNode }) {
  return <DataContext.Provider value={data}>{children}</DataContext.Provider>;
}

export function useRanchData(): PageData {
  const data = useContext(DataContext);
  if (!data) throw new Error('useRanchData needs a <DataProvider>');
  return data;
}

/**
 * The whole sync status, for the header's badge, which shows most of it. A component that
 * needs one field takes `useSyncField`: every change of the status (the socket connecting,
 * each acknowledgement's time, a change saved) re-renders a whole-status subscriber in
 * React's synchronous lane, which on a phone cost a screen's full re-render.
 */
export function useSyncStatus(): SyncStatus {
  const { status } = useRanchData();
  return useSyncExternalStore(status.subscribe, status.get);
}

/** One field of the sync status: the component re-renders only when that field changes. */
export function useSyncField<K extends keyof SyncStatus>(key: K): SyncStatus[K] {
  const { status } = useRanchData();
  return useSyncExternalStore(status.subscribe, () => status.get()[key]);
}
