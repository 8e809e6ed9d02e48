/**
 * Resolves once the browser has nothing more urgent to run: a task at background priority
 * (scheduler.postTask, Chromium and Firefox), so input, rendering, messages from the data
 * worker and any other task already queued go first. Elsewhere (Safari) a task, which at
 * least lets the tasks already queued run.
 *
 * For reads that fill a screen in pages while the person may already be working: on a phone
 * (CPU 4×) the horse list's forty pages kept the main thread busy for ~1.3 s after the
 * first rows, and a dialog opened or a horse saved then waited behind them
 * (docs/performance.md).
 */
export function backgroundTurn(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.postTask === 'function') return scheduler.postTask(() => {}, { priority: 'background' });
  return new Promise((resolve) => setTimeout(resolve, 0));
}

type Scheduler = { postTask?: (task: () => void, options: { priority: 'background' }) => Promise<void> };
