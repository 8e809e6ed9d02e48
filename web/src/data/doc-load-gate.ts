import { useLayoutEffect } from 'react';

/**
 * When the document starts loading: after the first screen has painted its list. Applying
 * the stored document takes seconds of main thread at ranch scale (docs/web.md), while the
 * lists read Dexie, so main.tsx passes `afterFirstRowsShown` to openRanchData as
 * `docLoadAfter` and every list screen reports its first rows with `useFirstRowsShown`.
 * A screen without a list (or one that forgets to report) delays the load by the timeout.
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
  // A frame and a task later: the rows committed in a layout effect are on screen by then.
  return rows.then(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
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
