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

/**
 * Server → client: the document's epoch (a varString; '' for a document never rebuilt), the
 * first message of every connection that asked with `ack=1`. `npm run rebuild-document`
 * gives the document a new epoch (docs/sync-rules.md "Document epochs"): a device that holds
 * state of another epoch sends none of it, carries its unsent changes over as record-level
 * writes and starts from an empty document.
 */
export const MESSAGE_EPOCH = 103;

/**
 * Server → client: the ledger's head `seq` (a varString of its decimal digits) once an entry
 * up to it is committed (docs/sync-rules.md §7): a device pulls `GET /api/ledger?after=`
 * from its cursor. Sent only to connections that asked with `ledger=1` (SYNC_LEDGER_PARAM).
 */
export const MESSAGE_LEDGER = 104;
/** Optional query parameter of the sync socket: `1` asks for MESSAGE_LEDGER. */
export const SYNC_LEDGER_PARAM = 'ledger';

/** The epoch of a document that was never rebuilt (and of a device's state that names none). */
export const INITIAL_EPOCH = '';

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

/**
 * WebSocket close codes (4000–4999 are for applications): what a client switches on. Every
 * close the server sends, each with its reason, is in SYNC_CLOSE below.
 */
export const CloseCode = {
  /**
   * Not valid y-websocket protocol, or an update the server refuses outright. In 4400–4499 on
   * purpose: y-websocket stops reconnecting, so a broken client does not resend it forever.
   */
  BadMessage: 4400,
  /** No valid session cookie on the upgrade. */
  Unauthorized: 4401,
  /** A foreign Origin, or a role that may not open the document. */
  Forbidden: 4403,
  /** Unknown document name. */
  NotFound: 4404,
  /**
   * The document was rebuilt under a new epoch (docs/sync-rules.md "Document epochs") and
   * this client sent state of an older one. In 4400–4499 on purpose: y-websocket stops
   * reconnecting; the client must start again from an empty document.
   */
  EpochChanged: 4409,
  /** The server could not persist; the client should reconnect later and resend. */
  TryAgainLater: 1013,
  /**
   * Service Restart: the server is stopping (SIGTERM, SIGINT) after committing and acknowledging
   * everything it took in. Clients reconnect at once and resend what is not acknowledged.
   */
  ServiceRestart: 1012,
  // Limits (docs/sync-limits.md). Outside 4400-4499 on purpose: y-websocket stops
  // reconnecting on those, and after these the device must back off and reconnect.
  /** Too much unsent data queued for this connection (a peer that does not read). */
  SlowReader: 4008,
  /** Too many messages or document updates on this connection in a short time. */
  TooManyMessages: 4029,
  /** This session or user already has the most sync sockets allowed open on this server. */
  TooManyConnections: 4030,
} as const;

/** One close the server sends: the code a client switches on and the reason a person reads. */
export type SyncClose = { readonly code: number; readonly reason: string };

/**
 * Every close the sync server sends, code with reason: call sites name one of these and
 * never write a reason of their own (a detail is added with `closeWith`). Reasons must fit
 * a close frame (123 bytes of UTF-8); the server cuts longer ones (fitCloseReason).
 */
export const SYNC_CLOSE = {
  /** The upgrade had no valid session cookie. */
  unauthorized: { code: CloseCode.Unauthorized, reason: 'Unauthorized' },
  /** The session ended while connected (sign-out, role change, removal). */
  signedOut: { code: CloseCode.Unauthorized, reason: 'Signed out' },
  /** The device named whose changes it holds (SYNC_USER_PARAM) and the session is another user's ([A12]). */
  otherUser: { code: CloseCode.Unauthorized, reason: 'Signed in as another user' },
  crossOrigin: { code: CloseCode.Forbidden, reason: 'Forbidden: cross-origin WebSocket' },
  unknownDocument: { code: CloseCode.NotFound, reason: 'Unknown document' },
  /** The document could not be loaded or persisted: reconnect later and resend. */
  documentUnavailable: { code: CloseCode.TryAgainLater, reason: 'Document unavailable, reconnect later' },
  sendFailed: { code: CloseCode.TryAgainLater, reason: 'Send failed' },
  /** The server is stopping (graceful stop): reconnect now, to it once restarted or to another instance. */
  serverRestarting: { code: CloseCode.ServiceRestart, reason: 'Server restarting, reconnect now' },
  malformedMessage: { code: CloseCode.BadMessage, reason: 'Malformed message' },
  /** An update naming a client of an older epoch of the document: its state would bring back what the rebuild removed. */
  epochChanged: { code: CloseCode.EpochChanged, reason: 'Document rebuilt: start again from an empty document' },
  /** An update the rules refuse whole (closeWith adds which rule). */
  refusedUpdate: { code: CloseCode.BadMessage, reason: 'Update refused' },
  /** Applying the update threw for a reason of the server's. */
  updateFailed: { code: CloseCode.BadMessage, reason: 'Update could not be applied' },
  tooManyInvalidChanges: { code: CloseCode.BadMessage, reason: 'Too many invalid changes; try again later' },
  tooManyMessages: { code: CloseCode.TooManyMessages, reason: 'Too many messages' },
  tooManyUpdates: { code: CloseCode.TooManyMessages, reason: 'Too many updates' },
  slowReader: { code: CloseCode.SlowReader, reason: 'Too much unsent data: reading too slowly' },
  tooManyConnections: { code: CloseCode.TooManyConnections, reason: 'Too many sync connections for this session or user' },
} as const satisfies Record<string, SyncClose>;

/** A close with what it was about: `Unknown document: other`, `Update refused: …`. */
export function closeWith(close: SyncClose, detail: string): SyncClose {
  return { code: close.code, reason: `${close.reason}: ${detail}` };
}

export const SYNC_PATH = '/api/sync';
/**
 * Optional query parameter of the sync socket: the id of the user whose changes the device
 * sends. When the session is another user's, the socket closes with `otherUser` before any
 * sync data, so one user's unsent changes are never taken in under another's session ([A12]).
 */
export const SYNC_USER_PARAM = 'user';
/**
 * The same for REST calls that carry a device's stored work (the photo uploads): a request
 * with this header naming another user than the session's is answered 401 ([A12]).
 */
export const SENDER_HEADER = 'x-ranch-user';
