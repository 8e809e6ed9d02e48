import { createRpcClient, type RpcClient } from './rpc/client.ts';
import { switchableEndpoint } from './rpc/switchable-endpoint.ts';
import { type Endpoint, isRpcMessage } from './rpc/wire.ts';

/** The lock whose holder is the device's host tab, and the channel the other tabs call over. */
export const HOST_LOCK = 'ranch-data-host';
export const HOST_CHANNEL = 'ranch-data-rpc';
/** Said on the channel by a tab that has just become the host: calls to the old one are lost. */
const NEW_HOST = 'ranch-data-new-host';

export type HostedClient = {
  client: RpcClient;
  /** Calls `listener` when another host took over (the client has said hello to it again). */
  onNewHost(listener: () => void): () => void;
  /** Whether this tab is the host now (for tests and the bench). */
  readonly isHost: boolean;
};

type Locks = Pick<LockManager, 'request'>;

export type ElectionOptions = {
  /** Starts this tab's own data worker once it is elected. */
  startWorker(): Endpoint & { terminate?(): void };
  locks?: Locks;
  channel?: () => BroadcastChannel;
};

/**
 * Several tabs, one document where there is no SharedWorker (Chrome for Android before
 * 148, Android WebViews; docs/web.md "Several tabs, one host"). Every tab asks for the
 * HOST_LOCK; the tab that holds it runs the data worker and relays between it and a
 * BroadcastChannel, which the other tabs call over (every message names its client, so
 * the channel carries all of them). When the host tab closes, the browser releases its
 * lock, the next tab in line starts its own worker (the document and what the server has
 * not acknowledged are in IndexedDB) and says so; calls that were waiting for the old host
 * fail ('try again'), so nothing is applied twice, and every tab says hello to the new one.
 */
export function electHost(options: ElectionOptions): HostedClient {
  const locks = options.locks ?? navigator.locks;
  const channel = (options.channel ?? (() => new BroadcastChannel(HOST_CHANNEL)))();
  const endpoint = switchableEndpoint(channel as unknown as Endpoint);
  const client = createRpcClient(endpoint);
  const listeners = new Set<() => void>();
  let isHost = false;

  const hostChanged = () => {
    client.reintroduce(new Error('The data host changed while this was saving. Try again.'));
    for (const listener of listeners) listener();
  };

  channel.addEventListener('message', (event: MessageEvent) => {
    if (!isHost && (event.data as { kind?: unknown })?.kind === NEW_HOST) hostChanged();
  });

  void locks.request(HOST_LOCK, async () => {
    isHost = true;
    const worker = options.startWorker();
    relay(channel, worker);
    endpoint.switchTo(worker);
    channel.postMessage({ kind: NEW_HOST });
    hostChanged();
    // Held for as long as this tab lives; the browser releases it when the tab goes.
    await new Promise<never>(() => {});
  });

  return {
    client,
    onNewHost(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get isHost() {
      return isHost;
    },
  };
}

/** Passes the other tabs' calls to the worker, and everything the worker says back to them. */
function relay(channel: BroadcastChannel, worker: Endpoint): void {
  channel.addEventListener('message', (event: MessageEvent) => {
    if (isRpcMessage(event.data)) worker.postMessage(event.data);
  });
  worker.addEventListener('message', (event: MessageEvent) => {
    if (isRpcMessage(event.data)) channel.postMessage(event.data);
  });
}
