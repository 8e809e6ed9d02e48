import { type Endpoint, isRpcMessage, type RpcMessage, toWireError } from './wire.ts';

/** The methods a host answers; each gets the call's arguments and may answer with a promise. */
export type Handlers = Record<string, (...args: never[]) => unknown>;

export type RpcHostOptions = {
  /** The events a client gets when it says hello (the current state), as [name, payload] pairs. */
  snapshot?(): [string, unknown][];
};

export type RpcHost = {
  /** Serves calls arriving on `endpoint` (a tab's port, a worker's scope, a channel); returns how to stop. */
  attach(endpoint: Endpoint): () => void;
  /** Sends an event to every client on every endpoint. */
  emit(name: string, payload: unknown): void;
  close(): void;
};

/**
 * The side that holds the data (the data worker): answers numbered calls with `handlers`
 * and pushes events (docs/web.md "The data layer in a worker"). A client's calls are
 * answered on the endpoint they came from, addressed to that client.
 */
export function createRpcHost(handlers: Handlers, options: RpcHostOptions = {}): RpcHost {
  const endpoints = new Map<Endpoint, (event: MessageEvent) => void>();

  const answer = async (endpoint: Endpoint, message: Extract<RpcMessage, { rpc: 'call' }>) => {
    const { client, id, method, args } = message;
    try {
      if (!Object.hasOwn(handlers, method)) throw new Error(`No such method: ${method}`);
      const handler = handlers[method] as (...args: unknown[]) => unknown;
      const value = await handler(...(Array.isArray(args) ? args : []));
      endpoint.postMessage({ rpc: 'result', client, id, value });
    } catch (thrown) {
      endpoint.postMessage({ rpc: 'error', client, id, error: toWireError(thrown) });
    }
  };

  return {
    attach(endpoint) {
      const listener = (event: MessageEvent) => {
        const message: unknown = event.data;
        if (!isRpcMessage(message)) return;
        if (message.rpc === 'call') void answer(endpoint, message);
        if (message.rpc === 'hello') {
          for (const [name, payload] of options.snapshot?.() ?? []) {
            endpoint.postMessage({ rpc: 'event', client: message.client, name, payload });
          }
        }
      };
      endpoints.set(endpoint, listener);
      endpoint.addEventListener('message', listener);
      endpoint.start?.();
      return () => {
        endpoint.removeEventListener('message', listener);
        endpoints.delete(endpoint);
      };
    },
    emit(name, payload) {
      for (const endpoint of endpoints.keys()) endpoint.postMessage({ rpc: 'event', client: null, name, payload });
    },
    close() {
      for (const [endpoint, listener] of endpoints) endpoint.removeEventListener('message', listener);
      endpoints.clear();
    },
  };
}
