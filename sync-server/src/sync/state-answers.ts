import * as Y from 'yjs';
import { UserBuckets } from './limits.ts';

/** Seconds of a user's encode rate that may be saved up (a burst of new devices and reconnects). */
export const ENCODE_SECONDS_SAVED = 30;
/** What to send a device for its sync step 1: the update that is its step 2, or wait and ask again. */
export type StateAnswer = { update: Uint8Array } | { retryInMs: number };

/**
 * Sync step 2 answers of one document, at a bounded cost (docs/sync-limits.md):
 * - a device that holds nothing of the document (a new device — or a flood of "send me
 *   everything") gets the whole document encoded once for as long as nothing changes (a full
 *   encode of a large ranch takes a noticeable part of a second). It must be one update: y-websocket calls a
 *   device synced when its step 2 arrives, so the cache is not topped up with a second one;
 * - the encode time each user's answers take is budgeted (RANCH_SYNC_ENCODE_MS_PER_SECOND,
 *   thirty seconds' worth saved up): a client that forces full encodes (a state vector naming one real client)
 *   waits once its budget is spent, instead of holding the document's queue for everyone.
 */
export class StateAnswers {
  private whole: Uint8Array | null = null;
  /** Each user's encode time, in ms. */
  private readonly budgets: UserBuckets;
  private readonly onUpdate = () => {
    this.whole = null;
  };

  constructor(
    private readonly doc: Y.Doc,
    encodeMsPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.budgets = new UserBuckets(encodeMsPerSecond, encodeMsPerSecond * ENCODE_SECONDS_SAVED, now);
    doc.on('update', this.onUpdate);
  }

  answer(stateVector: Uint8Array, userId: string): StateAnswer {
    const wait = this.budgets.wait(userId);
    if (wait > 0) return { retryInMs: wait };
    const started = this.now();
    const update = this.holdsNothing(stateVector)
      ? (this.whole ??= Y.encodeStateAsUpdate(this.doc))
      : Y.encodeStateAsUpdate(this.doc, stateVector);
    this.budgets.take(userId, this.now() - started);
    return { update };
  }

  private holdsNothing(stateVector: Uint8Array): boolean {
    for (const [client, clock] of Y.decodeStateVector(stateVector)) {
      if (clock > 0 && Y.getState(this.doc.store, client) > 0) return false;
    }
    return true;
  }

  destroy(): void {
    this.doc.off('update', this.onUpdate);
  }
}
