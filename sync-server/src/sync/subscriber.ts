import type { CompensationNotice } from '../../../shared/index.ts';

/**
 * Someone who receives a document's updates and presence (a WebSocket connection,
 * connection.ts). The document host, the registry and awareness know subscribers only
 * through this, never the socket class.
 */
export type Subscriber = {
  id: number;
  readonly userId: string;
  readonly sessionId: string;
  sendUpdate(update: Uint8Array): void;
  /** What the server put back of this subscriber's own change costs its user's budget (records put back). */
  chargeInvalid?(count: number): void;
  /** What the server put back of this subscriber's own change (sent before its acknowledgement). */
  sendNotices?(notices: CompensationNotice[]): void;
  /** The ledger's head reached `seq` (committed): the device pulls what it lacks (docs/sync-rules.md "Ledger"). */
  sendLedgerHead?(seq: bigint): void;
  /** An awareness (presence) update of the document. */
  sendAwareness(update: Uint8Array): void;
  /** The user's role changed while connected (Viewers may not write). */
  setCanWrite(canWrite: boolean): void;
  /** The document can no longer be trusted in memory; the subscriber must reconnect. */
  closeUnavailable(): void;
  /** The session ended: the subscriber must sign in again. */
  closeSignedOut(): void;
  /** The server is stopping: take in nothing more (what was taken in is still committed and acknowledged). */
  stopReading?(): void;
  /** The server is stopping, everything taken in is committed: close so that the subscriber reconnects at once (1012). */
  closeRestarting?(): void;
};
