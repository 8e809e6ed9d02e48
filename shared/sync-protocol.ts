/**
 * Our additions to the y-websocket protocol (types 0 sync and 1 awareness are y-protocols').
 * Stock clients never receive these: the server sends them only to connections that ask
 * with the `ack=1` URL parameter.
 */

/** Server → client: the server's state vector after the client's updates are durable. */
export const MESSAGE_ACK = 100;
/** Server → client: varUint 1 when this connection may not write (Viewer), else 0. */
export const MESSAGE_ACCESS = 101;

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
} as const;

export const SYNC_PATH = '/api/sync';
