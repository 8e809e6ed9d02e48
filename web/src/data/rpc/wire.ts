/**
 * What the page and the data worker say to each other (docs/web.md "The data layer in a
 * worker"): numbered calls, their answers, and events the host sends unasked. Every
 * message names the client it is from or for, so one host can serve many tabs over one
 * channel (a BroadcastChannel where there is no SharedWorker).
 */
export type CallMessage = { rpc: 'call'; client: string; id: number; method: string; args: unknown[] };
export type ResultMessage = { rpc: 'result'; client: string; id: number; value: unknown };
export type ErrorMessage = { rpc: 'error'; client: string; id: number; error: WireError };
/** `client` null: for every client. */
export type EventMessage = { rpc: 'event'; client: string | null; name: string; payload: unknown };
/** A client says it is there (the host answers with a snapshot) or that it is gone. */
export type HelloMessage = { rpc: 'hello' | 'bye'; client: string };

export type RpcMessage = CallMessage | ResultMessage | ErrorMessage | EventMessage | HelloMessage;

/** Anything messages go through: a MessagePort, a Worker, a SharedWorker's port, a BroadcastChannel. */
export type Endpoint = {
  postMessage(message: RpcMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  /** A MessagePort delivers to event listeners only once started. */
  start?(): void;
};

/** An Error as data: its name and message, and its own plain fields (ValidationError.issues, InUseError.count). */
export type WireError = { name: string; message: string; fields: Record<string, unknown> };

const RPC_KINDS: ReadonlySet<string> = new Set(['call', 'result', 'error', 'event', 'hello', 'bye']);

export function isRpcMessage(data: unknown): data is RpcMessage {
  return typeof data === 'object' && data !== null && RPC_KINDS.has((data as { rpc?: unknown }).rpc as string);
}

/** Whatever was thrown, as data that survives structured cloning. */
export function toWireError(thrown: unknown): WireError {
  if (!(thrown instanceof Error)) return { name: 'Error', message: String(thrown), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(thrown)) {
    if (key === 'name' || key === 'message' || key === 'stack' || typeof value === 'function') continue;
    try {
      fields[key] = structuredClone(value);
    } catch {
      // Not cloneable: the name and message still say what went wrong.
    }
  }
  return { name: thrown.name, message: thrown.message, fields };
}

/** An Error again on the calling side: `name`, `message` and the fields are as thrown; its class is Error. */
export function fromWireError(wire: WireError): Error {
  const error = new Error(wire.message);
  Object.assign(error, wire.fields);
  error.name = wire.name;
  return error;
}
