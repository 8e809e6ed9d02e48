import { type Endpoint, fromWireError, isRpcMessage } from './wire.ts';

export type RpcClient = {
  readonly id: string;
  /** Calls `method` on the host; resolves with its answer, rejects with its error. */
  call(method: string, ...args: unknown[]): Promise<unknown>;
  /** Listens to one kind of event the host sends (to every client or to this one). */
  on(name: string, listener: (payload: unknown) => void): () => void;
  /** Rejects every call still waiting for an answer (the host went away: docs/web.md, several tabs). */
  failPending(reason: Error): void;
  /**
   * Another host answers from now on (data/elected-host.ts): fails what waited for the old
   * one with `reason` and says hello to the new one, which sends its current state.
   */
  reintroduce(reason: Error): void;
  /** Says goodbye, stops listening and rejects what is still waiting. */
  close(): void;
};

let clients = 0;

/** A fresh id for a client: unique among the tabs of a device. */
function clientId(): string {
  clients += 1;
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${clients}-${Math.random()}`;
}

/**
 * The page's side of the RPC (docs/web.md "The data layer in a worker"): numbered calls over
 * `endpoint`, answers matched by number, events by name. Messages for other clients on a
 * shared channel are ignored. Says hello at once, so the host sends its current state.
 */
export function createRpcClient(endpoint: Endpoint, id: string = clientId()): RpcClient {
  let next = 0;
  let closed = false;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();

  const onMessage = (event: MessageEvent) => {
    const message: unknown = event.data;
    if (!isRpcMessage(message)) return;
    if (message.rpc === 'event') {
      if (message.client !== null && message.client !== id) return;
      for (const listener of listeners.get(message.name) ?? []) listener(message.payload);
      return;
    }
    if ((message.rpc !== 'result' && message.rpc !== 'error') || message.client !== id) return;
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.rpc === 'result') waiting.resolve(message.value);
    else waiting.reject(fromWireError(message.error));
  };
  endpoint.addEventListener('message', onMessage);
  endpoint.start?.();
  endpoint.postMessage({ rpc: 'hello', client: id });

  const failPending = (reason: Error) => {
    const waiting = [...pending.values()];
    pending.clear();
    for (const call of waiting) call.reject(reason);
  };

  return {
    id,
    call(method, ...args) {
      if (closed) return Promise.reject(new Error('The data layer is closed'));
      next += 1;
      const callId = next;
      return new Promise((resolve, reject) => {
        pending.set(callId, { resolve, reject });
        try {
          endpoint.postMessage({ rpc: 'call', client: id, id: callId, method, args });
        } catch (error) {
          // Arguments that cannot be cloned (a function, a DOM node): refused before sending.
          pending.delete(callId);
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    },
    on(name, listener) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    failPending,
    reintroduce(reason) {
      if (closed) return;
      failPending(reason);
      endpoint.postMessage({ rpc: 'hello', client: id });
    },
    close() {
      if (closed) return;
      closed = true;
      endpoint.postMessage({ rpc: 'bye', client: id });
      endpoint.removeEventListener('message', onMessage);
      listeners.clear();
      failPending(new Error('The data layer is closed'));
    },
  };
}
