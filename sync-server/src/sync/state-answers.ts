import { Worker } from 'node:worker_threads';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { UserBuckets } from './limits.ts';

/** Seconds of a user's encode rate that may be saved up (a burst of new devices and reconnects). */
export const ENCODE_SECONDS_SAVED = 30;
/**
 * A stopped encoder thread is started again at most this often: a new one is seeded with the
 * whole document, encoded on the main thread, so a thread that keeps failing must not make
 * every commit wait. Answers meanwhile fail (their connections close and reconnect).
 */
export const ENCODER_RESTART_MS = 1000;
/**
 * What to send a device for its sync step 1: the sync step 2 message (the whole of what it
 * lacks, as the document is when asked), once encoded; or wait and ask again.
 */
export type StateAnswer = { message: Promise<Uint8Array> } | { retryInMs: number };

type Reply = { id: number; message?: Uint8Array; error?: string; ms: number };

/** Starts an encoder thread whose replica begins from `updates`, in order. */
export type StartEncoder = (updates: Uint8Array[]) => Worker;

const encoderThread: StartEncoder = (updates) =>
  new Worker(new URL('./state-encoder-worker.mjs', import.meta.url), { workerData: { updates } });

/**
 * Sync step 2 answers of one document, at a bounded cost (docs/sync-limits.md):
 * - answers are encoded on a thread of their own (state-encoder-worker.mjs), from a replica
 *   of the document fed every update the host applies, in order: a whole-document answer for
 *   a new device (or a flood of "send me everything") takes a noticeable part of a second for
 *   a large ranch, and on the main thread it would hold every commit that long. The replica
 *   keeps the whole document's answer until the document changes. An answer is one update:
 *   y-websocket calls a device synced when its step 2 arrives;
 * - an answer is asked for from the document's queue (document-host.ts), where the document
 *   holds only what is durable: it holds everything committed before it, and the connection
 *   holds back what is committed after it until the answer is sent (connection.ts);
 * - the encode time each user's answers take is budgeted (RANCH_SYNC_ENCODE_MS_PER_SECOND,
 *   thirty seconds' worth saved up): a client that forces full encodes (a state vector naming
 *   one real client) waits once its budget is spent, and cannot take the encoder's thread
 *   from everyone;
 * - a thread that stops or fails fails the answers it owed (their connections close and
 *   reconnect), and the next answer starts a new one, its replica seeded from the document as
 *   it is then: no answer waits on a dead thread, and one failure does not fail all later ones.
 */
export class StateAnswers {
  /** Each user's encode time, in ms. */
  private readonly budgets: UserBuckets;
  private worker: Worker;
  /** Answers asked for and not yet encoded, by request id. */
  private readonly waiting = new Map<number, { userId: string | null; resolve(message: Uint8Array): void; reject(error: Error): void }>();
  private nextId = 0;
  /** Why the current thread stopped (a new one is started for the next answer), or null. */
  private failure: Error | null = null;
  private destroyed = false;
  private startedAt: number;
  private readonly onUpdate = (update: Uint8Array) => {
    this.worker.postMessage({ kind: 'apply', updates: [update] });
  };

  /** `updates`: what the document was loaded from (document-store.ts applyStored); later ones follow it. */
  constructor(
    private readonly doc: Y.Doc,
    updates: Uint8Array[],
    encodeMsPerSecond: number,
    private readonly now: () => number = () => performance.now(),
    private readonly startEncoder: StartEncoder = encoderThread,
  ) {
    this.budgets = new UserBuckets(encodeMsPerSecond, encodeMsPerSecond * ENCODE_SECONDS_SAVED, now);
    this.startedAt = now();
    this.worker = this.start(updates);
    doc.on('update', this.onUpdate);
  }

  private start(updates: Uint8Array[]): Worker {
    const worker = this.startEncoder(updates);
    worker.unref();
    worker.on('message', ({ id, message, error, ms }: Reply) => {
      const waiter = this.waiting.get(id);
      if (!waiter) return;
      this.waiting.delete(id);
      if (waiter.userId !== null) this.budgets.take(waiter.userId, ms);
      if (message) waiter.resolve(message);
      else waiter.reject(new Error(error ?? 'No answer'));
    });
    // A stopped thread's late events must not fail the thread started after it.
    worker.on('error', (error) => worker === this.worker && this.fail(error));
    worker.on('exit', () => worker === this.worker && this.fail(new Error('The state encoder stopped')));
    return worker;
  }

  /** The encoder thread, started anew (from the document as it is now) if the last one stopped. */
  private encoder(): Worker {
    if (this.destroyed) throw new Error('The document was closed');
    if (this.failure) {
      if (this.now() - this.startedAt < ENCODER_RESTART_MS) throw this.failure;
      this.failure = null;
      this.startedAt = this.now();
      void this.worker.terminate();
      this.worker = this.start([Y.encodeStateAsUpdate(this.doc)]);
    }
    return this.worker;
  }

  /** Asks for the answer to `stateVector` as the document is now; resolves once encoded. */
  answer(stateVector: Uint8Array, userId: string): StateAnswer {
    const wait = this.budgets.wait(userId);
    if (wait > 0) return { retryInMs: wait };
    let encoder: Worker;
    try {
      encoder = this.encoder();
    } catch (error) {
      return { message: Promise.reject(error as Error) };
    }
    const id = this.nextId++;
    const message = new Promise<Uint8Array>((resolve, reject) => this.waiting.set(id, { userId, resolve, reject }));
    encoder.postMessage({ kind: 'answer', id, stateVector });
    return { message };
  }

  /**
   * The whole document as one update, as it is now, for a compaction's snapshot (encoded on
   * the answers' thread, and kept there for new devices while the document is unchanged).
   */
  async wholeDocument(): Promise<Uint8Array> {
    const encoder = this.encoder();
    const id = this.nextId++;
    const message = new Promise<Uint8Array>((resolve, reject) => this.waiting.set(id, { userId: null, resolve, reject }));
    encoder.postMessage({ kind: 'answer', id, stateVector: null });
    const decoder = decoding.createDecoder(await message);
    decoding.readVarUint(decoder); // y-websocket's message type
    decoding.readVarUint(decoder); // sync step 2
    return decoding.readVarUint8Array(decoder);
  }

  /** Fails every answer the stopped thread owed; the next answer starts a new thread. */
  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }

  destroy(): void {
    this.destroyed = true;
    this.doc.off('update', this.onUpdate);
    this.fail(new Error('The document was closed'));
    void this.worker.terminate();
  }
}
