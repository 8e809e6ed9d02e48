/**
 * Runs `work` when the page is idle (requestIdleCallback, at the latest after 2 s), or 200 ms
 * later where there is none (Safari); returns a cancel. For work that can wait but should be
 * done before the user needs it (the horse search's lower-cased names).
 */
export function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, 200);
  return () => clearTimeout(timer);
}
