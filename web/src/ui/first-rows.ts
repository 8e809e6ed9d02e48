/**
 * "The first screen has shown its rows": DataTable says so once it renders a list (rows
 * or the empty text). main.tsx waits for it before loading the document, whose stored
 * updates take seconds of main thread to apply at ranch scale, so the list read from
 * Dexie paints first.
 */
let shown = false;
const waiting = new Set<() => void>();

export function markRowsShown(): void {
  if (shown) return;
  shown = true;
  waiting.forEach((resolve) => resolve());
  waiting.clear();
}

/** Resolves after the first rows are painted, or after `timeoutMs` on screens without a list. */
export function afterFirstRows(timeoutMs: number): Promise<void> {
  const rows = new Promise<void>((resolve) => {
    if (shown) return resolve();
    waiting.add(resolve);
    setTimeout(resolve, timeoutMs);
  });
  // A frame and a task later: the rows committed in a layout effect are on screen by then.
  return rows.then(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}
