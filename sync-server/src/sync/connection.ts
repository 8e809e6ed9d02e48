import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import {
  closeWith,
  MESSAGE_ACCESS,
  MESSAGE_ACK,
  MESSAGE_COMPENSATED,
  MESSAGE_EPOCH,
  MESSAGE_LEDGER,
  type CompensationNotice,
  SYNC_CLOSE,
  type SyncClose,
} from '../../../shared/index.ts';
import { AwarenessGuard } from './awareness-guard.ts';
import { refuseDeepNesting, refuseInconsistent, RefusedUpdateError, refuseOversized } from './update-guard.ts';
import { DocumentUnavailableError, type DocumentHost, type Subscriber } from './document-host.ts';
import { refuseOutsideLayout } from './layout-guard.ts';
import { UpdateWaitsError, waitsForMissing } from './update-completeness.ts';
import { TokenBucket, type SyncLimits, type UserBuckets } from './limits.ts';

// Message types of the y-websocket protocol.
const MESSAGE_SYNC = 0;
const MESSAGE_AWARENESS = 1;
const MESSAGE_QUERY_AWARENESS = 3;

/** What an update the server refuses outright costs its user's budget of records put back (RANCH_SYNC_INVALID_PER_MINUTE). */
const REFUSED_UPDATE_COST = 100;

export type Socket = {
  /** `onSent` runs once the data has left this process's buffers (or the socket failed). */
  send(data: Uint8Array, onSent?: () => void): void;
  close(code: number, reason: string): void;
  /** Bytes queued for the peer and not yet written to the network (ws `bufferedAmount`). */
  readonly bufferedAmount: number;
};

export type ConnectionOptions = {
  id: number;
  readonly userId: string;
  readonly sessionId: string;
  /** Viewers: their document updates are dropped, never applied or stored. */
  canWrite: boolean;
  /** The client asked (`ack=1`) for our MESSAGE_ACK / MESSAGE_ACCESS messages. */
  wantsAcks: boolean;
  /** The client asked (`ledger=1`) for MESSAGE_LEDGER, the ledger's head after each push (a client that reads the ledger). */
  wantsLedger?: boolean;
  readonly limits: SyncLimits;
  /** Entities of each user's changes the server put back, per minute (shared by the user's connections). */
  readonly invalidChanges: UserBuckets;
};

/**
 * The server side of one y-websocket connection: the standard sync and awareness
 * messages, with every document update going through the host's durable commit.
 */
export class SyncConnection implements Subscriber {
  readonly id: number;
  readonly userId: string;
  readonly sessionId: string;
  private readonly presence: AwarenessGuard;
  private readonly messages: TokenBucket;
  private readonly updates: TokenBucket;
  /** The newest state vector a sync step 1 asked about and not yet answered. */
  private pendingStateVector: Uint8Array | null = null;
  /** Bytes of the full-state answer queued or unsent (at most one per connection), or null. */
  private fullStateBytes: number | null = null;
  /** Updates committed while a step 2 answer is being encoded: sent right after it, in order. */
  private heldUpdates: Uint8Array[] | null = null;
  /** Bytes of heldUpdates: they count against the send buffer as if already queued on the socket. */
  private heldBytes = 0;
  private closing = false;
  private closed = false;
  /** The server is stopping: messages are no longer read; what is queued still completes. */
  private stopped = false;
  /** A step 2 answer waiting for this user's encode budget (state-answers.ts). */
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: DocumentHost,
    private readonly awareness: awarenessProtocol.Awareness,
    private readonly socket: Socket,
    private readonly options: ConnectionOptions,
  ) {
    this.id = options.id;
    this.userId = options.userId;
    this.sessionId = options.sessionId;
    this.presence = new AwarenessGuard(awareness, options.limits);
    this.messages = new TokenBucket(options.limits.messagesPerSecond);
    this.updates = new TokenBucket(options.limits.updatesPerSecond);
  }

  /** The session ended (signed out): the device must sign in again before it syncs. */
  closeSignedOut(): void {
    this.closeNow(SYNC_CLOSE.signedOut);
  }

  /** A role change while connected: takes effect on the next update, and the device is told. */
  setCanWrite(canWrite: boolean): void {
    if (this.options.canWrite === canWrite) return;
    this.options.canWrite = canWrite;
    this.sendAccess();
    // Updates dropped while read-only leave a gap the device's later updates depend on:
    // ask it again for everything the server lacks, as on connect.
    if (canWrite) this.requestMissing();
  }

  private sendAccess(): void {
    if (!this.options.wantsAcks) return;
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_ACCESS);
    encoding.writeVarUint(encoder, this.options.canWrite ? 0 : 1);
    this.send(encoding.toUint8Array(encoder));
  }

  open(): void {
    this.host.subscribers.add(this);
    // First, before any sync data: a device holding state of another epoch sends none of it.
    this.sendEpoch();
    this.sendAccess();
    this.requestMissing();
    const states = this.awareness.getStates();
    if (states.size > 0) {
      this.send(this.awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(this.awareness, [...states.keys()])));
    }
  }

  private sendEpoch(): void {
    if (!this.options.wantsAcks) return;
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_EPOCH);
    encoding.writeVarString(encoder, this.host.epoch.id);
    this.send(encoding.toUint8Array(encoder));
  }

  /** Sync step 1: asks for what the device has and the server lacks (it answers with step 2). */
  private requestMissing(): void {
    void this.host
      .run(() => {
        const encoder = encoding.createEncoder();
        encoding.writeVarUint(encoder, MESSAGE_SYNC);
        syncProtocol.writeSyncStep1(encoder, this.host.doc);
        this.send(encoding.toUint8Array(encoder));
      })
      .catch(() => this.closeUnavailable());
  }

  receive(message: Uint8Array): void {
    // After stopReading the device's changes stay unacknowledged; it resends them on reconnecting.
    if (this.closing || this.closed || this.stopped) return;
    if (!this.messages.take()) return this.shut(SYNC_CLOSE.tooManyMessages);
    try {
      const decoder = decoding.createDecoder(message);
      const type = decoding.readVarUint(decoder);
      switch (type) {
        case MESSAGE_SYNC:
          return this.receiveSync(decoder);
        case MESSAGE_AWARENESS: {
          const update = decoding.readVarUint8Array(decoder);
          const allowed = this.presence.allow() ? this.presence.filter(update) : null;
          if (allowed) awarenessProtocol.applyAwarenessUpdate(this.awareness, allowed, this);
          return;
        }
        case MESSAGE_QUERY_AWARENESS:
          if (!this.presence.allow()) return;
          this.send(this.awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(this.awareness, [...this.awareness.getStates().keys()])));
          return;
        default:
          return; // Unknown types are ignored, as y-websocket does.
      }
    } catch {
      this.closeNow(SYNC_CLOSE.malformedMessage);
    }
  }

  private receiveSync(decoder: decoding.Decoder): void {
    const step = decoding.readVarUint(decoder);
    if (step === syncProtocol.messageYjsSyncStep1) {
      const stateVector = decoding.readVarUint8Array(decoder);
      Y.decodeStateVector(stateVector); // throws on garbage before anything is queued
      return this.answerStep1(stateVector);
    }
    if (step !== syncProtocol.messageYjsSyncStep2 && step !== syncProtocol.messageYjsUpdate) {
      throw new Error(`Unknown sync step ${step}`);
    }
    if (!this.updates.take()) return this.shut(SYNC_CLOSE.tooManyUpdates);
    const update = decoding.readVarUint8Array(decoder);
    if (!this.options.canWrite) return; // read-only: dropped, never applied or stored
    if (this.options.invalidChanges.spent(this.userId)) return this.shut(SYNC_CLOSE.tooManyInvalidChanges);
    const { structs, ds } = Y.decodeUpdate(update); // reject malformed bytes before they reach the document
    // State of an earlier epoch would bring back what the rebuild removed (docs/sync-rules.md "Document epochs").
    if (this.host.epoch.namesRetired(structs, ds)) return this.shut(SYNC_CLOSE.epochChanged);
    try {
      refuseOversized(structs, this.options.limits.entitiesPerUpdate);
    } catch (error) {
      return this.shut(closeWith(SYNC_CLOSE.refusedUpdate, (error as Error).message));
    }
    const origin = { kind: 'connection', connectionId: this.id, userId: this.options.userId } as const;
    this.host
      .commit((doc) => {
        // Judged against the document as it is now, before Yjs keeps a byte of it.
        refuseInconsistent(structs);
        refuseDeepNesting(structs, doc);
        refuseOutsideLayout(structs, doc);
        if (waitsForMissing(structs, ds, doc)) throw new UpdateWaitsError();
        Y.applyUpdate(doc, update, origin);
      }, origin)
      .then(() => this.sendAck())
      .catch((error: unknown) => {
        if (error instanceof DocumentUnavailableError) this.closeUnavailable();
        // Not applied nor acknowledged: the device sends what the server lacks, this update included.
        else if (error instanceof UpdateWaitsError) this.requestMissing();
        else if (error instanceof RefusedUpdateError) {
          // Only a broken or hostile client sends such updates: each costs its user as much as
          // REFUSED_UPDATE_COST records put back, so a few in a minute refuse the user's next ones too.
          this.options.invalidChanges.take(this.userId, REFUSED_UPDATE_COST);
          this.shut(closeWith(SYNC_CLOSE.refusedUpdate, error.message));
        } else this.closeNow(SYNC_CLOSE.updateFailed);
      });
  }

  /**
   * Sync step 2 (what the device lacks; a whole-document encode for a new device): at most
   * one queued or unsent per connection. Requests meanwhile are answered once, afterwards,
   * with the newest state vector, so repeating step 1 cannot multiply encodes or buffers.
   */
  private answerStep1(stateVector: Uint8Array): void {
    const idle = this.pendingStateVector === null && this.fullStateBytes === null;
    this.pendingStateVector = stateVector;
    if (idle) this.scheduleFullState();
  }

  private scheduleFullState(): void {
    this.fullStateBytes = 0; // queued: further step 1s wait for this answer
    void this.host
      .run(() => {
        const stateVector = this.pendingStateVector;
        this.pendingStateVector = null;
        if (!stateVector || this.closing || this.closed) {
          this.fullStateBytes = null;
          return;
        }
        // No encode for a connection already over its send buffer: it is closed instead.
        if (this.overSendBuffer()) return this.closeSlowReader();
        const answer = this.host.answers.answer(stateVector, this.userId);
        if ('retryInMs' in answer) {
          // This user's encode budget is spent: answer later (still one answer per connection).
          this.pendingStateVector ??= stateVector;
          this.retry = setTimeout(() => this.scheduleFullState(), answer.retryInMs);
          return;
        }
        // Encoded off the queue: what is committed meanwhile waits behind the answer.
        this.heldUpdates ??= [];
        answer.message.then(
          (message) => this.sendFullState(message),
          () => this.closeUnavailable(),
        );
      })
      .catch(() => this.closeUnavailable());
  }

  /** Sends a step 2 answer, then the updates committed since it was asked for, in order. */
  private sendFullState(message: Uint8Array): void {
    const held = this.heldUpdates ?? [];
    this.heldUpdates = null;
    this.heldBytes = 0;
    this.send(message, () => this.fullStateSent());
    this.fullStateBytes = message.byteLength;
    for (const update of held) this.send(update);
  }

  private fullStateSent(): void {
    this.fullStateBytes = null;
    if (this.pendingStateVector && !this.closing && !this.closed) this.scheduleFullState();
  }

  private overSendBuffer(): boolean {
    return this.socket.bufferedAmount + this.heldBytes - (this.fullStateBytes ?? 0) > this.options.limits.sendBufferBytes;
  }

  /** Keeps a message behind the answer being encoded; a device that would pass its send buffer so is closed instead. */
  private hold(held: Uint8Array[], message: Uint8Array): void {
    if (this.closing || this.closed) return;
    this.heldBytes += message.byteLength;
    if (this.overSendBuffer()) {
      this.heldUpdates = [];
      this.heldBytes = 0;
      return this.closeSlowReader();
    }
    held.push(message);
  }

  /** Tells the device which of its changes are durable: the server's state vector. */
  private sendAck(): void {
    if (!this.options.wantsAcks || this.closed) return;
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_ACK);
    encoding.writeVarUint8Array(encoder, Y.encodeStateVector(this.host.doc));
    // Behind an answer being encoded, like the updates: a device dates its last sync from it.
    const message = encoding.toUint8Array(encoder);
    if (this.heldUpdates) this.hold(this.heldUpdates, message);
    else this.send(message);
  }

  sendUpdate(update: Uint8Array): void {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_SYNC);
    syncProtocol.writeUpdate(encoder, update);
    const message = encoding.toUint8Array(encoder);
    if (this.heldUpdates) this.hold(this.heldUpdates, message);
    else this.send(message);
  }

  /**
   * A client whose changes keep being put back costs every device the compensations: past its
   * user's budget its updates are refused. Every put-back counts, whether a notice names it or not.
   */
  chargeInvalid(count: number): void {
    this.options.invalidChanges.take(this.userId, count);
  }

  /** Tells the device what the server put back of its change, and why (only devices that asked for acks). */
  sendNotices(notices: CompensationNotice[]): void {
    if (notices.length === 0 || !this.options.wantsAcks) return;
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_COMPENSATED);
    encoding.writeVarString(encoder, JSON.stringify(notices));
    this.send(encoding.toUint8Array(encoder));
  }

  /** The ledger's new head (only clients that asked for it: others would not understand it). */
  sendLedgerHead(seq: bigint): void {
    if (!this.options.wantsLedger || this.closed) return;
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_LEDGER);
    encoding.writeVarString(encoder, String(seq));
    this.send(encoding.toUint8Array(encoder));
  }

  sendAwareness(update: Uint8Array): void {
    this.send(this.awarenessMessage(update));
  }

  closeUnavailable(): void {
    this.closeNow(SYNC_CLOSE.documentUnavailable);
  }

  stopReading(): void {
    this.stopped = true;
  }

  closeRestarting(): void {
    this.shut(SYNC_CLOSE.serverRestarting);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.retry);
    this.host.subscribers.delete(this);
    const presence = this.presence.release();
    if (presence.length > 0) awarenessProtocol.removeAwarenessStates(this.awareness, presence, null);
  }

  private closeSlowReader(): void {
    this.shut(SYNC_CLOSE.slowReader);
  }

  /** Closes once, with a named close (shared SYNC_CLOSE); nothing more is sent or read meanwhile. */
  private shut(close: SyncClose): void {
    if (this.closing || this.closed) return;
    this.closing = true;
    this.closeNow(close);
  }

  /** Sends the close frame whatever state the connection is in (shut closes only once). */
  private closeNow({ code, reason }: SyncClose): void {
    this.socket.close(code, reason);
  }

  private awarenessMessage(update: Uint8Array): Uint8Array {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
    encoding.writeVarUint8Array(encoder, update);
    return encoding.toUint8Array(encoder);
  }

  private send(data: Uint8Array, onSent?: () => void): void {
    if (this.closing || this.closed) return;
    // A peer that does not read would make Node buffer without limit: close it instead.
    if (this.overSendBuffer()) return this.closeSlowReader();
    try {
      this.socket.send(data, onSent);
    } catch {
      this.closeNow(SYNC_CLOSE.sendFailed);
    }
  }
}
