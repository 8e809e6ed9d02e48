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

export function useSyncStatus(): SyncStatus {
  const { status } = useRanchData();
  return useSyncExternalStore(status.subscribe, status.get);
}
