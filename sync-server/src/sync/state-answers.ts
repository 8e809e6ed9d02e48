import * as Y from 'yjs';

/** Seconds of a user's encode rate that may be saved up (a burst of new devices and reconnects). */
export const ENCODE_SECONDS_SAVED = 30;
/** What to send a device for its sync step 1: the update that is its step 2, or wait and ask again. */
export type StateAnswer = { update: Uint8Array } | { retryInMs: number };

/**
 * Sync step 2 answers of one document, at a bounded cost (docs/sync-limits.md):
 * - a device that holds nothing of the document (a new device — or a flood of "send me
 *   everything") gets the whole document encoded once for as long as nothing changes (a full
 *   encode of the bench ranch takes 0.4–0.6 s). It must be one update: y-websocket calls a
 *   device synced when its step 2 arrives, so the cache is not topped up with a second one;
 * - the encode time each user's answers take is budgeted (RANCH_SYNC_ENCODE_MS_PER_SECOND,
 *   thirty seconds' worth saved up): a client that forces full encodes (a state vector naming one real client)
 *   waits once its budget is spent, instead of holding the document's queue for everyone.
 */
export class StateAnswers {
  private whole: Uint8Array | null = null;
  private readonly budgets: EncodeBudgets;
  private readonly onUpdate = () => {
    this.whole = null;
  };

  constructor(
    private readonly doc: Y.Doc,
    encodeMsPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.budgets = new EncodeBudgets(encodeMsPerSecond, now);
    doc.on('update', this.onUpdate);
  }

  answer(stateVector: Uint8Array, userId: string): StateAnswer {
    const wait = this.budgets.wait(userId);
    if (wait > 0) return { retryInMs: wait };
    const started = this.now();
    const update = this.holdsNothing(stateVector) ? (this.whole ??= Y.encodeStateAsUpdate(this.doc)) : Y.encodeStateAsUpdate(this.doc, stateVector);
    this.budgets.spend(userId, this.now() - started);
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

/** Each user's encode time: `msPerSecond` earned, at most ENCODE_SECONDS_SAVED of it saved up. */
export class EncodeBudgets {
  private readonly budgets = new Map<string, { ms: number; at: number }>();
  private readonly saved: number;

  constructor(
    private readonly msPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.saved = msPerSecond * ENCODE_SECONDS_SAVED;
  }

  /** How long the user must wait before the next encode (0: at once). */
  wait(userId: string): number {
    const budget = this.current(userId);
    return budget.ms > 0 ? 0 : Math.ceil((-budget.ms / this.msPerSecond) * 1000) + 1;
  }

  spend(userId: string, ms: number): void {
    this.current(userId).ms -= ms;
  }

  /** The user's budget, refilled for the time since it was last looked at. */
  private current(userId: string): { ms: number; at: number } {
    const now = this.now();
    let budget = this.budgets.get(userId);
    if (!budget) this.budgets.set(userId, (budget = { ms: this.saved, at: now }));
    budget.ms = Math.min(this.saved, budget.ms + ((now - budget.at) / 1000) * this.msPerSecond);
    budget.at = now;
    return budget;
  }
}
