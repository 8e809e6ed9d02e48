import * as Y from 'yjs';
import type { Sql, Tx } from '../db/client.ts';
import { collectionMap, COLLECTIONS, observeEntities, type CompensationNotice, type EntityChanges } from '../../../shared/index.ts';
import { type ChangeOrigin, originUserId } from './origin.ts';
import { applyCompensations, noticesOf, planCompensations, rememberValid, type LastValid, type LastValidSource } from './compensation.ts';
import {
  appendUpdates,
  applyStored,
  compactDocument,
  loadDocument,
  lockDocument,
  MAX_UPDATES_PER_COMMIT,
  readUpdatesSince,
  type LoggedUpdate,
} from './persistence.ts';
import { lastValidStates } from './projection.ts';
import { mergeEdits, observeEdits, type Edits } from './edits.ts';
import { ReferenceIndex } from './references.ts';
import { DEFAULT_SYNC_LIMITS } from './limits.ts';
import { StateAnswers } from './state-answers.ts';
import { RefusedUpdateError } from './update-guard.ts';

/**
 * The version of the sync rules (docs/sync-rules.md). Raise it when the rules come to refuse
 * something they accepted before: every stored document is then checked whole, once, on load.
 */
export const SYNC_RULES_VERSION = 1;

/** Logged updates after which the log is folded into a snapshot, unless told otherwise. */
export const COMPACT_EVERY = 500;

/** Changes persisted in one commit at most: each may log an update and a compensation, and a catch-up one more. */
const MAX_BATCH = Math.floor((MAX_UPDATES_PER_COMMIT - 1) / 2);

export type HostEvents = {
  /** The host broke (its memory is ahead of Postgres): drop it, load afresh. */
  onBroken(host: DocumentHost): void;
  /** The document reached log position `seq` (a commit here or one read from another instance). */
  onPosition(name: string, seq: bigint): void;
};

export type HostOptions = {
  /** Logged updates after which the log is folded into a snapshot. */
  compactEvery?: number;
  /** Encode time of each user's sync answers (state-answers.ts; RANCH_SYNC_ENCODE_MS_PER_SECOND). */
  encodeMsPerSecond?: number;
};

/** Someone who receives the document's updates: a WebSocket connection. */
export type Subscriber = {
  id: number;
  sendUpdate(update: Uint8Array): void;
  /** The document can no longer be trusted in memory; the subscriber must reconnect. */
  closeUnavailable(): void;
  /** What the server put back of this subscriber's own change (sent before its acknowledgement). */
  sendNotices?(notices: CompensationNotice[]): void;
};

/** What transactions changed since it was last taken: entity ids, and the fields edited in entities that existed. */
type Pending = { changes: EntityChanges; edits: Edits };
const nothingPending = (): Pending => ({ changes: new Map(), edits: new Map() });

function mergePending(into: Pending, from: Pending): void {
  mergeChanges(into.changes, from.changes);
  mergeEdits(into.edits, from.edits);
}

type PendingCommit = {
  change: (doc: Y.Doc) => void;
  origin: ChangeOrigin;
  precheck?: () => Promise<void>;
  resolve: ((update: Uint8Array | null) => void) | undefined;
  reject: ((error: unknown) => void) | undefined;
};

/** Settles a commit's promise once; later calls do nothing. */
function settle(entry: PendingCommit, outcome: Uint8Array | null | unknown): void {
  if (outcome instanceof Error) entry.reject?.(outcome);
  else entry.resolve?.(outcome as Uint8Array | null);
  entry.resolve = undefined;
  entry.reject = undefined;
}

function mergeChanges(into: EntityChanges, from: EntityChanges): void {
  for (const [collection, ids] of from) {
    const known = into.get(collection);
    if (known) ids.forEach((id) => known.add(id));
    else into.set(collection, new Set(ids));
  }
}

/** Thrown to writers when the document could not be persisted; they should retry later. */
export class DocumentUnavailableError extends Error {}

/**
 * One document in memory, kept equal to what is durable in Postgres. Every operation on it
 * runs through one serial queue, so nobody reads state that is not yet committed: an update
 * is applied, logged and projected in one Postgres transaction, and broadcast only after.
 */
export class DocumentHost {
  readonly subscribers = new Set<Subscriber>();
  private tail: Promise<unknown> = Promise.resolve();
  private pending: Pending = nothingPending();
  private broken = false;
  private compacting = false;
  private batch: PendingCommit[] = [];
  private catchUpQueued = false;
  private stopObserving: () => void;
  /** Who refers to whom in the document; kept current by the observer below. */
  private readonly references: ReferenceIndex;
  /** Sync step 2 answers, with the whole document cached and each user's encode time budgeted. */
  readonly answers: StateAnswers;

  private constructor(
    private readonly sql: Sql,
    readonly name: string,
    readonly doc: Y.Doc,
    private readonly events: HostEvents,
    private lastSeq: bigint,
    private snapshotSeq: bigint,
    private readonly compactEvery: bigint,
    encodeMsPerSecond: number,
  ) {
    this.references = new ReferenceIndex(doc);
    this.answers = new StateAnswers(doc, encodeMsPerSecond);
    const stop = observeEntities(doc, (changes) => {
      mergeChanges(this.pending.changes, changes);
      // Entities that referred to something missing that has now appeared may be valid now.
      mergeChanges(this.pending.changes, this.references.update(changes));
    });
    const stopEdits = observeEdits(doc, (key, fields) => {
      let known = this.pending.edits.get(key);
      if (!known) this.pending.edits.set(key, (known = new Set()));
      for (const field of fields) known.add(field);
    });
    // Idempotent: a broken host stops observing, and is destroyed later.
    this.stopObserving = () => {
      stop();
      stopEdits();
      this.stopObserving = () => {};
    };
  }

  static async load(sql: Sql, name: string, events: HostEvents, options: HostOptions = {}): Promise<DocumentHost> {
    const { doc, lastSeq, snapshotSeq } = await loadDocument(sql, name, { kind: 'load' } satisfies ChangeOrigin);
    const compactEvery = BigInt(options.compactEvery ?? COMPACT_EVERY);
    const host = new DocumentHost(sql, name, doc, events, lastSeq, snapshotSeq, compactEvery, options.encodeMsPerSecond ?? DEFAULT_SYNC_LIMITS.encodeMsPerSecond);
    try {
      await host.checkUnderCurrentRules();
    } catch (error) {
      host.destroy();
      throw error;
    }
    events.onPosition(name, host.lastSeq);
    host.compactWhenDue();
    return host;
  }

  /**
   * A document stored under older rules may hold what these refuse: once, every entity is
   * checked and whatever fails is compensated, under the log lock (other instances wait).
   */
  private checkUnderCurrentRules(): Promise<void> {
    return this.sql.begin(async (tx) => {
      await lockDocument(tx, this.name);
      const [row] = await tx<{ checked_rules: number }[]>`select checked_rules from docs where name = ${this.name}`;
      if ((row?.checked_rules ?? 0) >= SYNC_RULES_VERSION) return;
      await this.takeInPeerUpdates(tx);
      this.takePending(); // already projected by whoever logged them
      const everything: EntityChanges = new Map(COLLECTIONS.map((collection) => [collection, new Set(collectionMap(this.doc, collection).keys())]));
      const plans = await planCompensations(this.doc, { changes: everything, edits: new Map() }, this.references, this.lastValidFrom(tx));
      const compensation = plans.length > 0 ? this.transact((doc) => applyCompensations(doc, plans), { kind: 'validation' }) : null;
      const fixed = this.takePending();
      if (compensation) {
        const seq = await appendUpdates(tx, this.name, this.lastSeq, [{ update: compensation, userId: null }], this.doc, fixed.changes);
        if (seq === null) throw new Error('The update log moved while locked');
        this.lastSeq = seq;
      }
      await tx`update docs set checked_rules = ${SYNC_RULES_VERSION} where name = ${this.name}`;
    });
  }

  /** Runs `job` after everything queued before it. */
  run<T>(job: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(() => {
      if (this.broken) throw new DocumentUnavailableError('The document is being reloaded; try again.');
      return job();
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /**
   * Applies `change` as one Yjs transaction, answers anything it made invalid with a
   * compensating update, persists both (log + projection, in one Postgres transaction),
   * then broadcasts. Resolves with the change's update, or null when it added nothing new.
   *
   * Group commit: changes that arrive while a commit is running are applied one by one and
   * persisted together in the next Postgres transaction, so throughput does not stop at one
   * commit per update. A change with a `precheck` (REST rules that read the projection, such
   * as "only an open sale takes a payment") runs in a batch of its own, after what is queued.
   */
  commit(change: (doc: Y.Doc) => void, origin: ChangeOrigin, precheck?: () => Promise<void>): Promise<Uint8Array | null> {
    return new Promise((resolve, reject) => {
      const entry: PendingCommit = { change, origin, resolve, reject, ...(precheck ? { precheck } : {}) };
      if (precheck) {
        void this.run(() => this.commitBatch([entry])).catch((error: unknown) => settle(entry, error));
        return;
      }
      this.batch.push(entry);
      if (this.batch.length === 1) this.queueFlush(); // otherwise a flush is already queued
    });
  }

  private queueFlush(): void {
    void this.run(() => {
      const batch = this.batch.splice(0, MAX_BATCH);
      if (this.batch.length > 0) this.queueFlush();
      return this.commitBatch(batch);
    }).catch((error: unknown) => {
      // The host broke: every commit not yet taken fails the same way.
      for (const pending of this.batch.splice(0)) settle(pending, error);
    });
  }

  /**
   * Another instance logged up to `seq`: reads what this document lacks from Postgres,
   * applies it and passes it on to the subscribers. Nothing to do for own commits.
   */
  catchUp(seq: bigint): void {
    if (seq <= this.lastSeq || this.catchUpQueued) return;
    this.catchUpQueued = true;
    void this.run(async () => {
      this.catchUpQueued = false;
      if (seq <= this.lastSeq) return; // caught up meanwhile, by a commit
      const update = await this.takeInPeerUpdates(this.sql);
      this.takePending(); // the other instance checked and projected them
      this.reachedPosition(this.lastSeq);
      if (update) for (const subscriber of this.subscribers) subscriber.sendUpdate(update);
    }).catch((error: unknown) => console.warn(`Catching up ${this.name} failed:`, (error as Error).message));
  }

  /** Applies what other instances logged after this document's position; returns it as one update. */
  private async takeInPeerUpdates(sql: Sql | Tx): Promise<Uint8Array | null> {
    const stored = await readUpdatesSince(sql, this.name, this.lastSeq);
    const update = this.transact((doc) => applyStored(doc, stored, { kind: 'peer' }), { kind: 'peer' });
    this.lastSeq = stored.lastSeq;
    return update;
  }

  private takePending(): Pending {
    const taken = this.pending;
    this.pending = nothingPending();
    return taken;
  }

  /** Where the planner reads last valid states: the projection and its tombstones, through `sql` (a transaction's, under the log lock). */
  private lastValidFrom(sql: Sql | Tx): LastValidSource {
    return (collection, ids) => lastValidStates(sql, collection, ids);
  }

  private reachedPosition(seq: bigint): void {
    this.events.onPosition(this.name, seq);
  }

  /** Settles every entry: its update, null (nothing new), or its own error. */
  private async commitBatch(entries: PendingCommit[]): Promise<void> {
    const applied: { entry: PendingCommit; update: Uint8Array; compensation: Uint8Array | null; notices: CompensationNotice[] }[] = [];
    const logged: LoggedUpdate[] = [];
    const batch = nothingPending();
    // The last valid state of entities changed earlier in this batch: the projection does not
    // have it yet, and a compensation must not roll back past it.
    const validInBatch: LastValid = new Map();
    for (const entry of entries) {
      let update: Uint8Array | null;
      try {
        await entry.precheck?.();
        update = this.transact(entry.change, entry.origin);
      } catch (error) {
        if (this.broken) {
          // This change threw halfway through: its sender is refused (a stock client then stops
          // resending it, which would break the document again), everyone else reconnects.
          settle(entry, new RefusedUpdateError('The update could not be applied'));
          return this.failBatch(entries, error);
        }
        settle(entry, error);
        continue;
      }
      if (!update) {
        this.takePending();
        settle(entry, null);
        continue;
      }
      let compensation: Uint8Array | null = null;
      let notices: CompensationNotice[] = [];
      try {
        const touched = this.takePending();
        const plans = await planCompensations(this.doc, touched, this.references, this.lastValidFrom(this.sql), validInBatch);
        if (plans.length > 0) {
          compensation = this.transact((doc) => applyCompensations(doc, plans), { kind: 'validation' });
          notices = noticesOf(plans, touched.changes);
        }
        mergePending(touched, this.takePending());
        rememberValid(this.doc, touched.changes, validInBatch);
        mergePending(batch, touched);
      } catch (error) {
        return this.failBatch(entries, error);
      }
      logged.push({ update, userId: originUserId(entry.origin) });
      if (compensation) logged.push({ update: compensation, userId: null });
      applied.push({ entry, update, compensation, notices });
    }
    if (logged.length === 0) return;
    const fromPeers: Uint8Array[] = [];
    try {
      const seq = await appendUpdates(this.sql, this.name, this.lastSeq, logged, this.doc, batch.changes);
      this.lastSeq = seq ?? (await this.persistAfterPeers(logged, batch, validInBatch, fromPeers));
    } catch (error) {
      return this.failBatch(entries, error);
    }
    this.reachedPosition(this.lastSeq);
    this.compactWhenDue();
    for (const update of fromPeers) for (const subscriber of this.subscribers) subscriber.sendUpdate(update);
    for (const { entry, update, compensation, notices } of applied) {
      const { origin } = entry;
      for (const subscriber of this.subscribers) {
        const isSender = origin.kind === 'connection' && origin.connectionId === subscriber.id;
        if (!isSender) subscriber.sendUpdate(update);
        if (compensation) subscriber.sendUpdate(compensation);
        if (isSender && notices.length > 0) subscriber.sendNotices?.(notices);
      }
      settle(entry, update);
    }
  }

  /**
   * Another instance logged updates this document has not seen, so the projection written
   * from it could be stale. Under the log lock (no one else commits meanwhile) the missing
   * updates are applied first, anything they made invalid is compensated, and the batch is
   * written from the merged document. `fromPeers` collects what the subscribers lack.
   */
  private persistAfterPeers(logged: LoggedUpdate[], batch: Pending, validInBatch: LastValid, fromPeers: Uint8Array[]): Promise<bigint> {
    return this.sql.begin(async (tx) => {
      await lockDocument(tx, this.name);
      const update = await this.takeInPeerUpdates(tx);
      if (update) fromPeers.push(update);
      mergePending(batch, this.takePending());
      const plans = await planCompensations(this.doc, batch, this.references, this.lastValidFrom(tx), validInBatch);
      if (plans.length > 0) {
        const compensation = this.transact((doc) => applyCompensations(doc, plans), { kind: 'validation' });
        mergePending(batch, this.takePending());
        if (compensation) {
          logged.push({ update: compensation, userId: null });
          fromPeers.push(compensation);
        }
      }
      const seq = await appendUpdates(tx, this.name, this.lastSeq, logged, this.doc, batch.changes);
      if (seq === null) throw new Error('The update log moved while locked');
      return seq;
    });
  }

  /**
   * The in-memory document now holds changes Postgres does not: drop it and let devices
   * reconnect to a fresh copy; they still hold their changes and resend them.
   */
  private failBatch(entries: PendingCommit[], error: unknown): never {
    this.markBroken();
    const failure = new DocumentUnavailableError(`Could not save the change: ${(error as Error).message}`);
    for (const entry of entries) settle(entry, failure);
    throw failure;
  }

  /** One Yjs transaction; returns the update it produced (null when nothing changed). */
  private transact(change: (doc: Y.Doc) => void, origin: ChangeOrigin): Uint8Array | null {
    const captured: Uint8Array[] = [];
    const capture = (update: Uint8Array) => captured.push(update);
    this.doc.on('update', capture);
    try {
      this.doc.transact(() => change(this.doc), origin);
    } catch (error) {
      // A change that refuses before writing leaves nothing behind. One that wrote and then
      // threw left the document ahead of Postgres: reload it rather than keep that state.
      if (captured.length > 0) this.markBroken();
      else this.takePending();
      throw error;
    } finally {
      this.doc.off('update', capture);
    }
    return captured.length === 0 ? null : captured.length === 1 ? captured[0]! : Y.mergeUpdates(captured);
  }

  /** Queues a compaction once enough updates have been logged since the last snapshot. */
  private compactWhenDue(): void {
    if (this.lastSeq - this.snapshotSeq < this.compactEvery || this.compacting) return;
    this.compacting = true;
    void this.run(async () => {
      const upto = this.lastSeq;
      await compactDocument(this.sql, this.name, Y.encodeStateAsUpdate(this.doc), upto);
      this.snapshotSeq = upto;
    })
      // A failed compaction loses nothing: the log is still there; the next one retries.
      .catch((error: unknown) => console.warn(`Compaction of ${this.name} failed:`, (error as Error).message))
      .finally(() => (this.compacting = false));
  }

  private markBroken(): void {
    if (this.broken) return;
    this.broken = true;
    this.stopObserving();
    for (const subscriber of this.subscribers) subscriber.closeUnavailable();
    this.subscribers.clear();
    this.events.onBroken(this);
  }

  destroy(): void {
    this.stopObserving();
    this.answers.destroy();
    this.doc.destroy();
  }
}
