import WebSocket from 'ws';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { DOC_NAME, MESSAGE_ACK, newId, SYNC_PATH, writeEntity } from '../../../shared/index.ts';

/** How the server took what the hostile client sent. */
export type Outcome = { result: 'answered' | 'acked' } | { result: 'closed'; code: number } | { result: 'no-answer' };

const ANSWER_TIMEOUT_MS = 15_000;
const MESSAGE_SYNC = 0;

type Waiter = { resolve(outcome: Outcome): void };
type AckWaiter = { client: number; clock: number; resolve(outcome: Outcome): void };

/**
 * A hostile client on a raw socket: it speaks enough y-websocket to keep `mirror` a replica
 * of the server's document (so its hostile updates integrate), asks for acknowledgements
 * (`ack=1`) to know when an update is committed, and sends any bytes. When the server
 * closes the socket it connects again; when an update of its own was never acknowledged
 * its replica may hold what the server lacks, so it starts from a fresh replica.
 */
export class HostileSocket {
  mirror = new Y.Doc();
  /** Close codes the server answered with, and how often. */
  readonly closes = new Map<number, number>();
  private socket: WebSocket | undefined;
  private serverVector = new Map<number, number>();
  private step2Waiters: Waiter[] = [];
  private ackWaiters: AckWaiter[] = [];
  private tainted = false;
  private readonly probeId = newId();
  private probes = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly cookie: string,
  ) {}

  private get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Connects (again) and waits until the replica has the server's document. */
  async connect(): Promise<Outcome> {
    if (this.open) return { result: 'answered' };
    if (this.tainted) {
      this.mirror.destroy();
      this.mirror = new Y.Doc();
      this.tainted = false;
    }
    const url = `${this.baseUrl.replace(/^http/, 'ws')}${SYNC_PATH}/${DOC_NAME}?ack=1`;
    const socket = new WebSocket(url, { headers: { cookie: this.cookie } });
    this.socket = socket;
    socket.binaryType = 'nodebuffer';
    socket.on('message', (data: Buffer) => {
      try {
        this.receive(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      } catch {
        // The replica holds what the server refused (maps nested thousands deep); a deletion
        // the server sends makes Yjs collect that chain recursively and overflow the stack.
        // The replica is the hostile client's own problem: start again from a fresh one.
        this.tainted = true;
        socket.terminate();
      }
    });
    socket.on('close', (code) => this.closed(socket, code));
    socket.on('error', () => {}); // a refused or reset socket also closes
    const synced = this.waitForStep2();
    socket.once('open', () => this.sendRaw(this.step1()));
    return synced;
  }

  /**
   * Sends raw bytes, then a probe: a valid edit of a breed of this client's own, which the
   * server acknowledges only once it has read everything sent before it (step 1 answers
   * would not do: the server coalesces them). Resolves when the probe is acknowledged or the
   * socket closed. A probe lost with the socket is sent on the next connect, with the replica.
   */
  async sendFrame(bytes: Uint8Array): Promise<Outcome> {
    const ready = await this.connect();
    if (ready.result !== 'answered') return ready;
    const before = Y.encodeStateVector(this.mirror);
    writeEntity(this.mirror, 'breeds', this.probeId, { name: `Probe ${++this.probes}`, isActive: true });
    const clock = Y.decodeStateVector(Y.encodeStateVector(this.mirror)).get(this.mirror.clientID) ?? 0;
    const acked = this.waitForAck(this.mirror.clientID, clock);
    this.sendRaw(bytes);
    this.sendRaw(this.updateMessage(Y.encodeStateAsUpdate(this.mirror, before)));
    return acked;
  }

  /**
   * Makes `change` on the replica and sends it as a sync update (and `extra`, an update of
   * another document, after it); resolves when the server acknowledged both or closed.
   */
  async sendChange(change: (doc: Y.Doc) => Uint8Array | undefined): Promise<Outcome> {
    const ready = await this.connect();
    if (ready.result !== 'answered') return ready;
    const before = Y.encodeStateVector(this.mirror);
    let extra: Uint8Array | undefined;
    this.mirror.transact(() => {
      extra = change(this.mirror);
    }, 'hostile');
    const waits: Promise<Outcome>[] = [];
    const ours = Y.encodeStateAsUpdate(this.mirror, before);
    const clock = Y.decodeStateVector(Y.encodeStateVector(this.mirror)).get(this.mirror.clientID) ?? 0;
    if (clock > (Y.decodeStateVector(before).get(this.mirror.clientID) ?? 0)) {
      waits.push(this.waitForAck(this.mirror.clientID, clock));
      this.sendRaw(this.updateMessage(ours));
    }
    if (extra) {
      for (const [client, clock] of Y.decodeStateVector(Y.encodeStateVectorFromUpdate(extra))) waits.push(this.waitForAck(client, clock));
      this.sendRaw(this.updateMessage(extra));
    }
    if (waits.length === 0) return { result: 'acked' };
    const outcomes = await Promise.all(waits);
    const failed = outcomes.find((outcome) => outcome.result !== 'acked');
    if (failed) this.tainted = true;
    return failed ?? { result: 'acked' };
  }

  close(): void {
    this.socket?.close();
    this.mirror.destroy();
  }

  private step1(): Uint8Array {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_SYNC);
    syncProtocol.writeSyncStep1(encoder, this.mirror);
    return encoding.toUint8Array(encoder);
  }

  private updateMessage(update: Uint8Array): Uint8Array {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_SYNC);
    syncProtocol.writeUpdate(encoder, update);
    return encoding.toUint8Array(encoder);
  }

  private sendRaw(bytes: Uint8Array): void {
    if (this.open) this.socket!.send(bytes);
  }

  private receive(message: Uint8Array): void {
    try {
      this.read(message);
    } catch {
      // What the server sent could not be read: the replica may now lack it.
      this.tainted = true;
    }
  }

  private read(message: Uint8Array): void {
    const decoder = decoding.createDecoder(message);
    const type = decoding.readVarUint(decoder);
    if (type === MESSAGE_SYNC) {
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, MESSAGE_SYNC);
      const step = syncProtocol.readSyncMessage(decoder, encoder, this.mirror, 'server');
      if (step === syncProtocol.messageYjsSyncStep1) this.sendRaw(encoding.toUint8Array(encoder));
      if (step === syncProtocol.messageYjsSyncStep2) this.answered();
    } else if (type === MESSAGE_ACK) {
      for (const [client, clock] of Y.decodeStateVector(decoding.readVarUint8Array(decoder))) {
        this.serverVector.set(client, Math.max(clock, this.serverVector.get(client) ?? 0));
      }
      this.ackWaiters = this.ackWaiters.filter((waiter) => {
        if ((this.serverVector.get(waiter.client) ?? 0) < waiter.clock) return true;
        waiter.resolve({ result: 'acked' });
        return false;
      });
    }
  }

  private answered(): void {
    this.step2Waiters.shift()?.resolve({ result: 'answered' });
  }

  private closed(socket: WebSocket, code: number): void {
    if (socket !== this.socket) return;
    this.closes.set(code, (this.closes.get(code) ?? 0) + 1);
    const outcome: Outcome = { result: 'closed', code };
    this.step2Waiters.splice(0).forEach((waiter) => waiter.resolve(outcome));
    this.ackWaiters.splice(0).forEach((waiter) => waiter.resolve(outcome));
  }

  private waitForStep2(): Promise<Outcome> {
    return this.withDeadline((resolve) => {
      const waiter = { resolve };
      this.step2Waiters.push(waiter);
      return () => (this.step2Waiters = this.step2Waiters.filter((w) => w !== waiter));
    });
  }

  private waitForAck(client: number, clock: number): Promise<Outcome> {
    if ((this.serverVector.get(client) ?? 0) >= clock) return Promise.resolve({ result: 'acked' });
    return this.withDeadline((resolve) => {
      const waiter = { client, clock, resolve };
      this.ackWaiters.push(waiter);
      return () => (this.ackWaiters = this.ackWaiters.filter((w) => w !== waiter));
    });
  }

  /**
   * A promise `register` settles, or `no-answer` after ANSWER_TIMEOUT_MS: then the waiter is
   * dropped and the socket given up (the next send connects afresh, from a fresh replica).
   */
  private withDeadline(register: (resolve: (outcome: Outcome) => void) => () => void): Promise<Outcome> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        drop();
        this.tainted = true;
        this.socket?.terminate();
        this.socket = undefined;
        resolve({ result: 'no-answer' });
      }, ANSWER_TIMEOUT_MS);
      const drop = register((outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      });
    });
  }
}
