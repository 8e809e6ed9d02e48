import { electHost } from './elected-host.ts';
import { STATE_METHODS } from './host/host-api.ts';
import { createRpcClient, type RpcClient } from './rpc/client.ts';
import { deferredClient } from './rpc/deferred-client.ts';
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
 *
 * With `startNow` false (a device with nobody on record: docs/web.md "Start-up") the host
 * and its script (Yjs, the sync, the projection: ~100 KiB gzip) start with the first call
 * that needs an answer, the sign-in's `connect` or a look at unsent changes; the calls that
 * only say the page's state wait for it.
 */
export function connectDataHost({ startNow = true }: { startNow?: boolean } = {}): HostConnection {
  const kind = hostKind();
  if (startNow) return openHost(kind);
  let opened: HostConnection | null = null;
  // Each listener with what stops it on the started host, once there is one.
  const newHostListeners = new Map<() => void, (() => void) | null>();
  const client = deferredClient(
    () => {
      const host = openHost(kind);
      opened = host;
      for (const listener of newHostListeners.keys()) newHostListeners.set(listener, host.onNewHost(listener));
      return host.client;
    },
    (method) => STATE_METHODS.has(method),
  );
  return {
    kind,
    client,
    onNewHost(listener) {
      newHostListeners.set(listener, opened?.onNewHost(listener) ?? null);
      return () => {
        newHostListeners.get(listener)?.();
        newHostListeners.delete(listener);
      };
    },
  };
}

function hostKind(): HostKind {
  if (typeof SharedWorker !== 'undefined') return 'shared';
  if (typeof navigator.locks?.request === 'function' && typeof BroadcastChannel !== 'undefined') return 'elected';
  return 'dedicated';
}

function openHost(kind: HostKind): HostConnection {
  if (kind === 'shared') {
    const shared = new SharedWorker(new URL('./host/shared-worker.ts', import.meta.url), { type: 'module', name: 'ranch-data' });
    const client = createRpcClient(shared.port as unknown as Endpoint);
    fallBackIfWorkerFails(shared, client);
    // Said goodbye when the tab goes for good (not when it is kept for Back).
    addEventListener('pagehide', (event: PageTransitionEvent) => {
      if (!event.persisted) client.close();
    });
    return { kind: 'shared', client, onNewHost: never };
  }
  if (kind === 'elected') {
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
