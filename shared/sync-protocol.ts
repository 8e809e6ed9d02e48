import type { Collection, JsonValue } from './doc-layout.ts';

/**
 * Our additions to the y-websocket protocol (types 0 sync and 1 awareness are y-protocols').
 * Stock clients never receive these: the server sends them only to connections that ask
 * with the `ack=1` URL parameter.
 */

/** Server → client: the server's state vector after the client's updates are durable. */
export const MESSAGE_ACK = 100;
/** Server → client: varUint 1 when this connection may not write (Viewer), else 0. */
export const MESSAGE_ACCESS = 101;

/**
 * Server → client: JSON (a varString) list of CompensationNotice: what the server put back
 * of this connection's change, and why (docs/sync-rules.md). Sent before the MESSAGE_ACK
 * that covers the change, only to connections that asked with `ack=1`.
 */
export const MESSAGE_COMPENSATED = 102;

export type CompensationNotice = {
  collection: Collection;
  id: string;
  /** removed: the record was not kept; restored: it was brought back whole; reverted: some fields were written back. */
  action: 'removed' | 'restored' | 'reverted';
  /** The values the server wrote (for restored: the whole record). */
  fields: Record<string, JsonValue>;
  /** Fields the server deleted (ones the record may not have). */
  dropped?: string[];
  /** Why, in words a person can read. */
  reason: string;
};

/** WebSocket close codes (4000–4999 are for applications). */
export const CloseCode = {
  /** No valid session cookie on the upgrade. */
  Unauthorized: 4401,
  /** A foreign Origin, or a role that may not open the document. */
  Forbidden: 4403,
  /** Unknown document name. */
  NotFound: 4404,
  /** The server could not persist; the client should reconnect later and resend. */
  TryAgainLater: 1013,
  // Limits (docs/sync-limits.md). Outside 4400-4499 on purpose: y-websocket stops
  // reconnecting on those, and after these the device must back off and reconnect.
  /** Too much unsent data queued for this connection (a peer that does not read). */
  SlowReader: 4008,
  /** Too many messages or document updates on this connection in a short time. */
  TooManyMessages: 4029,
  /** This session or user already has the most sync sockets allowed open on this server. */
  TooManyConnections: 4030,
} as const;

export const SYNC_PATH = '/api/sync';
