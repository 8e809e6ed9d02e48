import { useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useRanchData } from './context.tsx';
import { countWaitingEntries } from './ledger/ledger-rows.ts';

/**
 * Records with changes the server has not acknowledged, for the header; 0 when all saved.
 * Counted where the document is (waiting-count.ts), at most every 400 ms while typing.
 */
export function useWaitingChanges(): number {
  const { waiting } = useRanchData();
  return useSyncExternalStore(waiting.subscribe, waiting.get).records;
}

/** Sales, payments and corrections recorded on this device that the server has not answered (ledger/push.ts). */
export function useWaitingEntries(): number {
  const { db } = useRanchData();
  return useLiveQuery(() => countWaitingEntries(db), [db]) ?? 0;
}

/** Photos queued on this device that have not reached the server. */
export function useWaitingPhotos(): number {
  const { photos } = useRanchData();
  return useLiveQuery(() => photos.countWaiting(), [photos]) ?? 0;
}
