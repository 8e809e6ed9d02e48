import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useRanchData, useSyncStatus } from './context.tsx';
import { countUnsavedRecords } from './unsaved-changes.ts';

/** How long edits settle before the waiting records are counted again (the count encodes a diff). */
const COUNT_DELAY_MS = 400;

/**
 * Records with changes the server has not acknowledged, for the header; 0 when all saved.
 * Counted only while something waits, and at most every COUNT_DELAY_MS while typing.
 */
export function useWaitingChanges(): number {
  const { doc, tracker } = useRanchData();
  const { saved } = useSyncStatus();
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (saved) {
      setCount(0);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | null = null;
    const recount = () => {
      if (timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        setCount(countUnsavedRecords(doc, tracker));
      }, COUNT_DELAY_MS);
    };
    setCount(countUnsavedRecords(doc, tracker));
    doc.on('update', recount);
    const stop = tracker.onChange(recount);
    return () => {
      doc.off('update', recount);
      stop();
      if (timer !== null) clearTimeout(timer);
    };
  }, [doc, tracker, saved]);
  return count;
}

/** Photos queued on this device that have not reached the server. */
export function useWaitingPhotos(): number {
  const { photos } = useRanchData();
  return useLiveQuery(() => photos.countWaiting(), [photos]) ?? 0;
}
