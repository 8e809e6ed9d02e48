import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { RanchData } from './ranch-data.ts';
import type { SyncStatus } from './sync.ts';

const DataContext = createContext<RanchData | null>(null);

export function DataProvider({ data, children }: { data: RanchData; children: ReactNode }) {
  return <DataContext.Provider value={data}>{children}</DataContext.Provider>;
}

export function useRanchData(): RanchData {
  const data = useContext(DataContext);
  if (!data) throw new Error('useRanchData needs a <DataProvider>');
  return data;
}

export function useSyncStatus(): SyncStatus {
  const { status } = useRanchData();
  return useSyncExternalStore(status.subscribe, status.get);
}
