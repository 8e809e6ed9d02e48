import { electHost } from './elected-host.ts';
import { STATE_METHODS } from './host/host-api.ts';
import { createRpcClient, type RpcClient } from './rpc/client.ts';
import { deferredClient } from './rpc/deferred-client.ts';
import type { Endpoint } from './rpc/wire.ts';
import { fallBackIfWorkerFails, workerFailedBefore } from './worker-fallback.ts';

export type HostKind = 'shared' | 'elected';

export type HostConnection = {
  kind: HostKind;
  client: RpcClient;
  /** Another tab's worker took over (elected hosts only): the page says again what it had said. */
  onNewHost(listener: () => void): () => void;
};

const never = () => () => {};

/**
 * When the host starts: `now`; `when-needed`, with the first call that needs an answer (the
 * calls that only say the page's state wait for it); or when a promise resolves, every call
 * waiting until then.
 */
export type HostStart = 'now' | 'when-needed' | Promise<unknown>;

/**
 * Connects this tab to the device's data host (docs/web.md "Several tabs, one host"): the
 * SharedWorker where the browser has one (and it started in this tab's session); else the
 * worker of the tab elected by Web Locks, over a BroadcastChannel.
 *
 * The host and its script (Yjs, the sync, the projection) can start later
 * than the page (docs/web.md "Start-up"): main.tsx starts it once the first screen has shown
 * what it reads from the device, or on a device with nobody on record with the sign-in's
 * `connect` or a look at unsent changes.
 */
export function connectDataHost({ start = 'now' }: { start?: HostStart } = {}): HostConnection {
  const kind = hostKind();
  if (start === 'now') return openHost(kind);
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
    start === 'when-needed' ? (method) => STATE_METHODS.has(method) : () => true,
  );
  // Started however the wait ends: a gate that failed must not leave the page without its data.
  if (start !== 'when-needed') {
    const begin = () => client.start();
    void start.then(begin, begin);
  }
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
  return typeof SharedWorker !== 'undefined' && !workerFailedBefore() ? 'shared' : 'elected';
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
  const elected = electHost({
    startWorker() {
      const worker = new Worker(new URL('./host/worker.ts', import.meta.url), { type: 'module', name: 'ranch-data' });
      worker.addEventListener('error', (event) => console.error('The data worker failed', event));
      return worker as unknown as Endpoint;
    },
  });
  return { kind: 'elected', client: elected.client, onNewHost: (listener) => elected.onNewHost(listener) };
}
