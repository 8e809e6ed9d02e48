import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { CloseCode, MESSAGE_ACCESS, MESSAGE_ACK } from '../../../shared/index.ts';
import { DocumentUnavailableError, type DocumentHost, type Subscriber } from './document-host.ts';

// Message types of the y-websocket protocol.
const MESSAGE_SYNC = 0;
const MESSAGE_AWARENESS = 1;
const MESSAGE_QUERY_AWARENESS = 3;

/** Close code for a message that is not valid y-websocket protocol. */
export const CLOSE_BAD_MESSAGE = 4400;

export type Socket = {
  send(data: Uint8Array): void;
  close(code: number, reason: string): void;
};

export type ConnectionOptions = {
  id: number;
  readonly userId: string;
  readonly sessionId: string;
  /** Viewers: their document updates are dropped, never applied or stored. */
  canWrite: boolean;
  /** The client asked (`ack=1`) for our MESSAGE_ACK / MESSAGE_ACCESS messages. */
  wantsAcks: boolean;
};

/**
 * The server side of one y-websocket connection: the standard sync and awareness
 * messages, with every document update going through the host's durable commit.
 */
export class SyncConnection implements Subscriber {
  readonly id: number;
  readonly userId: string;
  readonly sessionId: string;
  private readonly awarenessClients = new Set<number>();
  private closed = false;

  constructor(
    private readonly host: DocumentHost,
    private readonly awareness: awarenessProtocol.Awareness,
    private readonly socket: Socket,
    private readonly options: ConnectionOptions,
  ) {
    this.id = options.id;
    this.userId = options.userId;
    this.sessionId = options.sessionId;
  }

  /** The session ended (signed out): the device must sign in again before it syncs. */
  closeSignedOut(): void {
    this.socket.close(CloseCode.Unauthorized, 'Signed out');
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
    this.sendAccess();
    this.requestMissing();
    const states = this.awareness.getStates();
    if (states.size > 0) {
      this.send(this.awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(this.awareness, [...states.keys()])));
    }
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
    try {
      const decoder = decoding.createDecoder(message);
      const type = decoding.readVarUint(decoder);
      switch (type) {
        case MESSAGE_SYNC:
          return this.receiveSync(decoder);
        case MESSAGE_AWARENESS: {
          const update = decoding.readVarUint8Array(decoder);
          awarenessProtocol.applyAwarenessUpdate(this.awareness, update, this);
          return;
        }
        case MESSAGE_QUERY_AWARENESS:
          this.send(this.awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(this.awareness, [...this.awareness.getStates().keys()])));
          return;
        default:
          return; // Unknown types are ignored, as y-websocket does.
      }
    } catch {
      this.socket.close(CLOSE_BAD_MESSAGE, 'Malformed message');
    }
  }

  private receiveSync(decoder: decoding.Decoder): void {
    const step = decoding.readVarUint(decoder);
    if (step === syncProtocol.messageYjsSyncStep1) {
      const stateVector = decoding.readVarUint8Array(decoder);
      Y.decodeStateVector(stateVector); // throws on garbage before anything is queued
      void this.host.run(() => {
        const encoder = encoding.createEncoder();
        encoding.writeVarUint(encoder, MESSAGE_SYNC);
        syncProtocol.writeSyncStep2(encoder, this.host.doc, stateVector);
        this.send(encoding.toUint8Array(encoder));
      }).catch(() => this.closeUnavailable());
      return;
    }
    if (step !== syncProtocol.messageYjsSyncStep2 && step !== syncProtocol.messageYjsUpdate) {
      throw new Error(`Unknown sync step ${step}`);
    }
    const update = decoding.readVarUint8Array(decoder);
    if (!this.options.canWrite) return; // read-only: dropped, never applied or stored
    Y.decodeUpdate(update); // reject malformed bytes before they reach the document
    const origin = { kind: 'connection', connectionId: this.id, userId: this.options.userId } as const;
    this.host
      .commit((doc) => Y.applyUpdate(doc, update, origin), origin)
      .then(() => this.sendAck())
      .catch((error: unknown) => {
        if (error instanceof DocumentUnavailableError) this.closeUnavailable();
        else this.socket.close(CLOSE_BAD_MESSAGE, 'Update could not be applied');
      });
  }

  /** Tells the device which of its changes are durable: the server's state vector. */
  private sendAck(): void {
    if (!this.options.wantsAcks || this.closed) return;
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_ACK);
    encoding.writeVarUint8Array(encoder, Y.encodeStateVector(this.host.doc));
    this.send(encoding.toUint8Array(encoder));
  }

  sendUpdate(update: Uint8Array): void {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_SYNC);
    syncProtocol.writeUpdate(encoder, update);
    this.send(encoding.toUint8Array(encoder));
  }

  sendAwareness(update: Uint8Array): void {
    this.send(this.awarenessMessage(update));
  }

  /** Remembers which awareness client ids this connection speaks for, to clear them on close. */
  trackAwareness(added: number[], removed: number[]): void {
    added.forEach((id) => this.awarenessClients.add(id));
    removed.forEach((id) => this.awarenessClients.delete(id));
  }

  closeUnavailable(): void {
    this.socket.close(CloseCode.TryAgainLater, 'Document unavailable, reconnect later');
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.host.subscribers.delete(this);
    if (this.awarenessClients.size > 0) {
      awarenessProtocol.removeAwarenessStates(this.awareness, [...this.awarenessClients], null);
    }
  }

  private awarenessMessage(update: Uint8Array): Uint8Array {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
    encoding.writeVarUint8Array(encoder, update);
    return encoding.toUint8Array(encoder);
  }

  private send(data: Uint8Array): void {
    if (this.closed) return;
    try {
      this.socket.send(data);
    } catch {
      this.socket.close(CloseCode.TryAgainLater, 'Send failed');
    }
  }
}
