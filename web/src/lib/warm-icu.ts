/** How long a warm-up waits for the worker's locale data before going on without it. */
export const ICU_WORKER_WAIT_MS = 3000;

let warming: Promise<void> | undefined;

/**
 * Has the renderer load the locale's data on a thread of its own (lib/warm-icu.worker.ts),
 * once per page. ICU's data and caches belong to the renderer process, not to a thread: once
 * a worker of the page has made a number and a date format, the page makes its own at once,
 * where its first one in a new renderer (an app started anew) is a long task of the main
 * thread on a phone. In a renderer that has loaded it before (a reload), the worker
 * finds it there.
 *
 * Resolves once the worker has answered, has failed, or after ICU_WORKER_WAIT_MS; never
 * rejects: whoever formats after it pays for the data itself, as before, if it is not there.
 */
export function warmIcu(): Promise<void> {
  warming ??= new Promise<void>((resolve) => {
    if (typeof Worker === 'undefined') {
      resolve();
      return;
    }
    let worker: Worker | undefined;
    const done = () => {
      clearTimeout(timer);
      worker?.terminate();
      resolve();
    };
    const timer = setTimeout(done, ICU_WORKER_WAIT_MS);
    try {
      worker = new Worker(new URL('./warm-icu.worker.ts', import.meta.url), { type: 'module', name: 'ranch-locale' });
      worker.onmessage = done;
      worker.onerror = done;
    } catch {
      done();
    }
  });
  return warming;
}
