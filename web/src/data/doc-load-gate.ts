import { useLayoutEffect } from 'react';
import { afterNextFrame } from '../lib/after-next-frame.ts';

/**
 * When the document starts loading, and on a device with a user on record when the data
 * worker starts: after the first screen has painted its list. Loading the stored document
 * and starting the worker compete with a start's first read of the lists (Dexie), so
 * main.tsx waits for `afterFirstRowsShown` (`docLoadAfter`), and every list screen reports
 * its first rows with `useFirstRowsShown`. A screen whose content comes from the data host
 * (the Dashboard) reports at once with `useNothingToWaitFor`; any other screen delays both
 * by the timeout.
 */
let shown = false;
const waiting = new Set<() => void>();

/** The first list rows (or its empty text) are on screen: the document may load now. */
export function markFirstRowsShown(): void {
  if (shown) return;
  shown = true;
  waiting.forEach((resolve) => resolve());
  waiting.clear();
}

/** Resolves after the first rows are painted, or after `timeoutMs` on screens without a list. */
export function afterFirstRowsShown(timeoutMs: number): Promise<void> {
  const rows = new Promise<void>((resolve) => {
    if (shown) return resolve();
    waiting.add(resolve);
    setTimeout(resolve, timeoutMs);
  });
  // The data worker's start waits for the rows to be on screen (lib/after-next-frame.ts).
  return rows.then(afterNextFrame);
}

/**
 * For a list screen: once its rows have answered (undefined while the first live query
 * runs), tells the document load it may start. A layout effect of the screen runs after its
 * table's DOM is committed, in the same frame.
 */
export function useFirstRowsShown(rows: readonly unknown[] | undefined): void {
  const answered = rows !== undefined;
  useLayoutEffect(() => {
    if (answered) markFirstRowsShown();
  }, [answered]);
}

/**
 * For a screen whose own content comes from the data host (the Dashboard's figures and due
 * items): nothing read from the device comes first, so the host may start at its first commit.
 */
export function useNothingToWaitFor(): void {
  useLayoutEffect(() => markFirstRowsShown(), []);
}
