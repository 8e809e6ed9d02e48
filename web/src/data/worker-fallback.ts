import type { RpcClient } from './rpc/client.ts';

/** Set for this tab's session when the SharedWorker could not start; the reload elects a host tab instead. */
const FAILED_KEY = 'ranch.dataWorkerFailed';

export function workerFailedBefore(): boolean {
  try {
    return sessionStorage.getItem(FAILED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * A SharedWorker that fails before it has said anything (its script could not load, a
 * browser whose shared workers cannot run modules, or it threw while starting: no IndexedDB
 * in a shared worker, say) leaves the page without its data. Then the tab notes it and
 * reloads with the host of the tab elected by Web Locks, a dedicated worker
 * (connect-data-host.ts); the note lasts for the tab's session, so a worker that keeps
 * failing never loops. Errors after the worker has answered are its own business (it
 * reports them as events).
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
