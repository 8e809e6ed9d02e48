import type { RpcClient } from './rpc/client.ts';

/** Set for this tab's session when the data worker could not start; the reload runs in-thread. */
const FAILED_KEY = 'ranch.dataWorkerFailed';

export function workerFailedBefore(): boolean {
  try {
    return sessionStorage.getItem(FAILED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * A worker that fails before it has said anything (its script could not load; a browser
 * without module workers runs it as a classic script, which fails at its first `import`;
 * or it threw while starting: no IndexedDB in a worker, say) leaves the page without its data. Then the
 * tab notes it and reloads with the data layer in its own thread; the note lasts for the
 * tab's session, so a worker that keeps failing never loops. Errors after the worker has
 * answered are its own business (it reports them as events).
 */
export function fallBackIfWorkerFails(
  worker: Pick<EventTarget, 'addEventListener'>,
  client: Pick<RpcClient, 'on'>,
  reload: () => void = () => location.reload(),
): void {
  let answered = false;
  const stop = client.on('status', () => {
    answered = true;
    stop();
  });
  worker.addEventListener('error', () => {
    if (answered) return;
    try {
      sessionStorage.setItem(FAILED_KEY, '1');
    } catch {
      return; // Without storage the reload would start the worker again.
    }
    reload();
  });
}
