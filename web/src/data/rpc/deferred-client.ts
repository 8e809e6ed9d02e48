import type { RpcClient } from './client.ts';

export type DeferredClient = RpcClient & {
  /** Starts the host now (idempotent). */
  start(): void;
  readonly started: boolean;
};

type Queued = { method: string; args: unknown[]; resolve(value: unknown): void; reject(error: Error): void };
type Listening = { name: string; listener: (payload: unknown) => void; stop?: () => void };

/**
 * An RPC client whose host starts only when something needs an answer from it
 * (docs/web.md "Start-up"). `open` starts the host and returns the client talking to it.
 * Calls whose method `waits` (they only tell the host the page's state) are kept until then;
 * any other call starts the host. Every kept call is sent in order, before the one that
 * started the host, and answers as it would have; listeners are passed on.
 */
export function deferredClient(open: () => RpcClient, waits: (method: string) => boolean): DeferredClient {
  let real: RpcClient | null = null;
  let closed = false;
  const queued: Queued[] = [];
  // Each listener with what stops it on the started host's client.
  const listeners = new Set<Listening>();

  const send = (client: RpcClient, call: Queued) => client.call(call.method, ...call.args).then(call.resolve, call.reject);

  const start = () => {
    if (real || closed) return;
    const client = open();
    real = client;
    for (const entry of listeners) entry.stop = client.on(entry.name, entry.listener);
    for (const call of queued.splice(0)) void send(client, call);
  };

  const failQueued = (reason: Error) => {
    for (const call of queued.splice(0)) call.reject(reason);
  };

  return {
    get id() {
      return real?.id ?? '';
    },
    get started() {
      return real !== null;
    },
    start,
    call(method, ...args) {
      if (real) return real.call(method, ...args);
      if (closed) return Promise.reject(new Error('The data layer is closed'));
      const answer = new Promise<unknown>((resolve, reject) => queued.push({ method, args, resolve, reject }));
      if (!waits(method)) start();
      return answer;
    },
    on(name, listener) {
      const entry: Listening = { name, listener, stop: real?.on(name, listener) };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
        entry.stop?.();
      };
    },
    failPending(reason) {
      if (real) real.failPending(reason);
      else failQueued(reason);
    },
    reintroduce(reason) {
      real?.reintroduce(reason);
    },
    close() {
      if (closed) return;
      closed = true;
      real?.close();
      failQueued(new Error('The data layer is closed'));
      listeners.clear();
    },
  };
}
