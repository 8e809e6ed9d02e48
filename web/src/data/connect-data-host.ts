import { electHost } from './elected-host.ts';
import { createRpcClient, type RpcClient } from './rpc/client.ts';
import type { Endpoint } from './rpc/wire.ts';
import { fallBackIfWorkerFails } from './worker-fallback.ts';

export type HostKind = 'shared' | 'elected' | 'dedicated';

export type HostConnection = {
  kind: HostKind;
  client: RpcClient;
  /** Another tab's worker took over (elected hosts only): the page says again what it had said. */
  onNewHost(listener: () => void): () => void;
};

const never = () => () => {};

/**
 * Connects this tab to the device's data host (docs/web.md "Several tabs, one host"): the
 * SharedWorker where the browser has one; else the worker of the tab elected by Web Locks,
 * over a BroadcastChannel; else (no Web Locks) a worker of this tab's own.
 */
export function connectDataHost(): HostConnection {
  if (typeof SharedWorker !== 'undefined') {
    const shared = new SharedWorker(new URL('./host/shared-worker.ts', import.meta.url), { type: 'module', name: 'ranch-data' });
    const client = createRpcClient(shared.port as unknown as Endpoint);
    fallBackIfWorkerFails(shared, client);
    // Said goodbye when the tab goes for good (not when it is kept for Back).
    addEventListener('pagehide', (event: PageTransitionEvent) => {
      if (!event.persisted) client.close();
    });
    return { kind: 'shared', client, onNewHost: never };
  }
  if (typeof navigator.locks?.request === 'function' && typeof BroadcastChannel !== 'undefined') {
    let hostClient: RpcClient | null = null;
    const elected = electHost({
      startWorker() {
        const worker = startDedicatedWorker();
        if (hostClient) fallBackIfWorkerFails(worker, hostClient);
        return worker as unknown as Endpoint;
      },
    });
    hostClient = elected.client;
    return { kind: 'elected', client: elected.client, onNewHost: (listener) => elected.onNewHost(listener) };
  }
  const worker = startDedicatedWorker();
  const client = createRpcClient(worker as unknown as Endpoint);
  fallBackIfWorkerFails(worker, client);
  return { kind: 'dedicated', client, onNewHost: never };
}

function startDedicatedWorker(): Worker {
  return new Worker(new URL('./host/worker.ts', import.meta.url), { type: 'module', name: 'ranch-data' });
}
