import * as Y from 'yjs';
import { collectionMap, DOC_COLLECTIONS, observeEntities, type CompensationNotice, type EntityChanges } from '../../../shared/index.ts';
import { type ChangeOrigin, originUserId } from './origin.ts';
import {
  applyCompensations,
  costOf,
  noticesOf,
  planCompensations,
  rememberValid,
  type Author,
  type LastValid,
  type LastValidSource,
} from './compensation.ts';
import { applyStored, MAX_UPDATES_PER_COMMIT, type DocumentAccess, type DocumentStore, type LoggedUpdate } from './document-store.ts';
import { mergeEdits, observeEdits, type Edits } from './edits.ts';
import { fieldWrites, markConflicts, type FieldWrite } from './conflicts.ts';
import { historySteps, type HistoryStep } from './history.ts';
import { ReferenceIndex } from './references.ts';
import { DEFAULT_SYNC_LIMITS } from './limits.ts';
import { StateAnswers } from './state-answers.ts';
import type { Subscriber } from './subscriber.ts';
import { RefusedUpdateError } from './update-guard.ts';
import { migrateRules } from './rule-migrations.ts';
import { DocumentEpoch, freshClientId } from './epoch.ts';
import type { LedgerSaleIndex } from '../ledger/sale-index.ts';
import { movedIn, movedInDocument, removeMoved, withoutMoved, type OldLayout } from '../ledger/old-layout.ts';

/**
 * The version of the sync rules (docs/sync-rules.md). Raise it when the rules come to refuse
 * something they accepted before: every stored document is then checked whole, once, on load.
 */
export const SYNC_RULES_VERSION = 4;

/** Logged updates after which the log is folded into a snapshot, unless told otherwise. */
export const COMPACT_EVERY = 500;

/** Changes persisted in one commit at most: each may log an update and a compensation, and a catch-up one more. */
const MAX_BATCH = Math.floor((MAX_UPDATES_PER_COMMIT - 1) / 2);

export type HostEvents = {
  /** The host broke (its memory is ahead of the store): drop it, load afresh. */
  onBroken(host: DocumentHost): void;
  /** The document reached log position `seq` (a commit here or one read from another instance). */
  onPosition(name: string, seq: bigint): void;
};

export type HostOptions = {
  /** Logged updates after which the log is folded into a snapshot. */
  compactEvery?: number;
  /** Encode time of each user's sync answers (state-answers.ts; RANCH_SYNC_ENCODE_MS_PER_SECOND). */
  encodeMsPerSecond?: number;
  /** [K1] A person's name as the user table gives it (publicName), for the records their device creates. */
  authorName?: (userId: string) => Promise<string>;
  /** The horses and buyers ledger sales name (ledger/sale-index.ts): not deleted while named. */
  ledgerSales?: LedgerSaleIndex;
  /**
   * Layout 3 (ledger/old-layout.ts): sales, payments and corrections found in the document —
   * a stored layout-2 document at load, an old-layout write in a commit — are recorded in the
   * ledger and removed from the document.
   */
  oldLayout: OldLayout;
};

export type { Subscriber } from './subscriber.ts';

/** What one transaction changed: entity ids, and the fields edited in entities that existed. */
type Pending = { changes: EntityChanges; edits: Edits };
/**
 * A transaction's update (null when it added nothing new), what it changed, and the fields a
 * person's change wrote in existing entities ([T6] conflicts.ts; none for other origins).
 */
type Transacted = { update: Uint8Array | null; pending: Pending; writes: FieldWrite[] };
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
/** Answers a pending change with what it became: the update committed, or null when it changed nothing. */
function settle(entry: PendingCommit, update: Uint8Array | null): void {
  entry.resolve?.(update);
  entry.resolve = undefined;
  entry.reject = undefined;
}

/** Answers a pending change with why it was not committed; whatever was thrown, it rejects. */
function refuse(entry: PendingCommit, error: unknown): void {
  entry.reject?.(error);
  entry.resolve = undefined;
  entry.reject = undefined;
}

/**
 * The change's entities with those whose field it wrote added: a write the merge dropped
 * leaves the entity as it was, yet its history records the lost value ([T6]).
 */
function withWritten(pending: Pending, writes: FieldWrite[]): Pending {
  if (writes.length === 0) return pending;
  const changes: EntityChanges = new Map();
  mergeChanges(changes, pending.changes);
  for (const { collection, id } of writes) {
    const ids = changes.get(collection);
    if (ids) ids.add(id);
    else changes.set(collection, new Set([id]));
  }
  return { changes, edits: pending.edits };
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
 * One document in memory, kept equal to what is durable in its store (document-store.ts).
 * Every operation on it runs through one serial queue, so nobody reads state that is not yet
 * committed: an update is applied, then logged and projected in one append, and broadcast
 * only after the append resolved.
 */
export class DocumentHost {
  readonly subscribers = new Set<Subscriber>();
  private tail: Promise<unknown> = Promise.resolve();
  /** Filled by the observers during a transaction; taken only by `transact`, which returns it. */
  private pending: Pending = nothingPending();
  private broken = false;
  private compacting = false;
  /** The compaction under way (its snapshot is written outside the queue), or a settled promise. */
  private compaction: Promise<void> = Promise.resolve();
  private batch: PendingCommit[] = [];
  private catchUpQueued = false;
  private stopObserving: () => void;
  /** Who refers to whom in the document; kept current by the observer below. */
  private readonly references: ReferenceIndex;
  /** Sync step 2 answers, encoded on a thread of their own, each user's encode time budgeted. */
  readonly answers: StateAnswers;
  /** HostOptions.ledgerSales: told of each sale pushed here, asked by deletions (REST and the socket). */
  ledgerSales: LedgerSaleIndex | undefined;
  /** HostOptions.oldLayout. */
  private oldLayout!: OldLayout;
  /** HostOptions.authorName; without it, a device's records keep the author they name. */
  private authorName: ((userId: string) => Promise<string>) | undefined;

  private constructor(
    private readonly store: DocumentStore,
    readonly name: string,
    readonly doc: Y.Doc,
    private readonly events: HostEvents,
    private lastSeq: bigint,
    private snapshotSeq: bigint,
    private readonly compactEvery: bigint,
    encodeMsPerSecond: number,
    /** The updates the document was loaded from (the sync answers' replica starts from them). */
    loadedFrom: Uint8Array[],
    /** The document's epoch (epoch.ts): named to devices on connect; updates of earlier ones are refused. */
    readonly epoch: DocumentEpoch = new DocumentEpoch(),
  ) {
    this.references = new ReferenceIndex(doc);
    this.answers = new StateAnswers(doc, loadedFrom, encodeMsPerSecond);
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

  static async load(store: DocumentStore, name: string, events: HostEvents, options: HostOptions): Promise<DocumentHost> {
    const stored = await store.load(name);
    const epoch = await store.epoch(name);
    const doc = new Y.Doc({ gc: true });
    // The server's own writes (compensations) must never look like state of an earlier epoch.
    freshClientId(doc, epoch);
    applyStored(doc, stored, { kind: 'load' } satisfies ChangeOrigin);
    const compactEvery = BigInt(options.compactEvery ?? COMPACT_EVERY);
    const encodeMsPerSecond = options.encodeMsPerSecond ?? DEFAULT_SYNC_LIMITS.encodeMsPerSecond;
    const loadedFrom = stored.snapshot ? [stored.snapshot, ...stored.updates] : stored.updates;
    const host = new DocumentHost(
      store,
      name,
      doc,
      events,
      stored.lastSeq,
      stored.snapshotSeq,
      compactEvery,
      encodeMsPerSecond,
      loadedFrom,
      epoch,
    );
    host.authorName = options.authorName;
    host.oldLayout = options.oldLayout;
    const { ledgerSales } = options;
    if (ledgerSales) {
      host.ledgerSales = ledgerSales;
      host.references.namedOutside = (collection, id) =>
        collection === 'horses' || collection === 'buyers' ? ledgerSales.salesNaming(collection, id) : 0;
    }
    try {
      await host.moveToLedgerLayout();
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
   * Layout 3: a document that holds sales, payments or corrections (a stored layout-2
   * document, or one whose removal did not commit) has them moved into the ledger (committed),
   * then removed from the document as one server change, under the log lock (other instances
   * wait). Only what was moved is removed: a record another instance's device wrote meanwhile
   * stays for the next load. Idempotent: a run stopped halfway is finished by the next load.
   */
  private async moveToLedgerLayout(): Promise<void> {
    const { oldLayout } = this;
    const moved = movedInDocument(this.doc);
    if (!moved) return;
    // Before the log lock: the ledger's transactions need a session of their own (PGlite has one).
    const summary = await oldLayout.move(this.doc);
    await this.store.locked(this.name, async (locked) => {
      await this.takeInPeerUpdates(locked);
      if (summary.unmoved.length > 0 || summary.refused.length > 0)
        console.warn(
          `Layout 3: ${summary.unmoved.length + summary.refused.length} records of ${this.name} were no valid ledger entries and are removed:`,
          [
            ...summary.unmoved.map((record) => `${record.collection} ${record.id}: ${record.problem}`),
            ...summary.refused.map((r) => `${r.id}: ${r.message}`),
          ].join('; '),
        );
      const removal = this.transact((doc) => removeMoved(doc, moved, []), { kind: 'validation' });
      if (!removal.update) return;
      const seq = await locked.append(this.name, this.lastSeq, [{ update: removal.update, userId: null }], {
        doc: this.doc,
        changes: withoutMoved(removal.pending.changes),
      });
      if (seq === null) throw new Error('The update log moved while locked');
      this.lastSeq = seq;
    });
  }

  /**
   * A document stored under older rules may hold what these refuse: once, every entity is
   * checked and whatever fails is compensated, under the log lock (other instances wait).
   */
  private checkUnderCurrentRules(): Promise<void> {
    return this.store.locked(this.name, async (locked) => {
      if (locked.checkedRules >= SYNC_RULES_VERSION) return;
      await this.takeInPeerUpdates(locked); // what they changed was projected by whoever logged them
      const updates: { update: Uint8Array; userId: null }[] = [];
      const changes: EntityChanges = new Map();
      const migrated = this.transact((doc) => migrateRules(doc, locked.checkedRules, SYNC_RULES_VERSION), { kind: 'validation' });
      if (migrated.update) {
        updates.push({ update: migrated.update, userId: null });
        mergeChanges(changes, migrated.pending.changes);
      }
      const everything: EntityChanges = new Map(
        DOC_COLLECTIONS.map((collection) => [collection, new Set(collectionMap(this.doc, collection).keys())]),
      );
      const plans = await planCompensations(
        this.doc,
        { changes: everything, edits: new Map() },
        this.references,
        this.lastValidFrom(locked),
      );
      const fixed = plans.length > 0 ? this.transact((doc) => applyCompensations(doc, plans), { kind: 'validation' }) : null;
      if (fixed?.update) {
        updates.push({ update: fixed.update, userId: null });
        mergeChanges(changes, fixed.pending.changes);
      }
      if (updates.length > 0) {
        const seq = await locked.append(this.name, this.lastSeq, updates, { doc: this.doc, changes });
        if (seq === null) throw new Error('The update log moved while locked');
        this.lastSeq = seq;
      }
      await locked.setCheckedRules(SYNC_RULES_VERSION);
    });
  }

  /**
   * Resolves once every change taken in so far is committed (and acknowledged) or has failed,
   * including what group commit left for a next batch: a graceful stop waits for it.
   */
  async settled(): Promise<void> {
    let tail: Promise<unknown>;
    do {
      tail = this.tail;
      await tail;
      await this.compaction;
    } while (tail !== this.tail || this.batch.length > 0);
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
   * compensating update, persists both (log + projection, in one append to the store),
   * then broadcasts. Resolves with the change's update, or null when it added nothing new.
   *
   * Group commit: changes that arrive while a commit is running are applied one by one and
   * persisted together in the next append, so throughput does not stop at one
   * commit per update. A change with a `precheck` (REST rules that read the projection, such
   * as "only an open sale takes a payment") runs in a batch of its own, after what is queued.
   */
  commit(change: (doc: Y.Doc) => void, origin: ChangeOrigin, precheck?: () => Promise<void>): Promise<Uint8Array | null> {
    return new Promise((resolve, reject) => {
      const entry: PendingCommit = { change, origin, resolve, reject, ...(precheck ? { precheck } : {}) };
      if (precheck) {
        void this.run(() => this.commitBatch([entry])).catch((error: unknown) => refuse(entry, error));
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
      for (const pending of this.batch.splice(0)) refuse(pending, error);
    });
  }

  /**
   * Another instance logged up to `seq`: reads what this document lacks from the store,
   * applies it and passes it on to the subscribers. Nothing to do for own commits.
   */
  catchUp(seq: bigint): void {
    if (seq <= this.lastSeq || this.catchUpQueued) return;
    this.catchUpQueued = true;
    void this.run(async () => {
      this.catchUpQueued = false;
      if (seq <= this.lastSeq) return; // caught up meanwhile, by a commit
      // The other instance checked and projected what they changed.
      const { update } = await this.takeInPeerUpdates(this.store);
      this.reachedPosition(this.lastSeq);
      if (update) for (const subscriber of this.subscribers) subscriber.sendUpdate(update);
    }).catch((error: unknown) => console.warn(`Catching up ${this.name} failed:`, (error as Error).message));
  }

  /** Applies what other instances logged after this document's position, as one transaction. */
  private async takeInPeerUpdates(access: DocumentAccess): Promise<Transacted> {
    const stored = await access.readSince(this.name, this.lastSeq);
    const transacted = this.transact((doc) => applyStored(doc, stored, { kind: 'peer' }), { kind: 'peer' });
    this.lastSeq = stored.lastSeq;
    return transacted;
  }

  /**
   * Where the planner reads last valid states: the projection and its tombstones (under the
   * log lock when `access` is the locked document).
   */
  private lastValidFrom(access: DocumentAccess): LastValidSource {
    return (collection, ids) => access.lastValid(collection, ids);
  }

  /** [K1] The sender of a device's change, whose name is read only if the change creates a record naming its author. */
  private authorOf(origin: ChangeOrigin): Author | undefined {
    const { authorName } = this;
    if (origin.kind !== 'connection' || !authorName) return undefined;
    return { userId: origin.userId, name: () => authorName(origin.userId) };
  }

  private reachedPosition(seq: bigint): void {
    this.events.onPosition(this.name, seq);
  }

  /** Settles every entry: its update, null (nothing new), or its own error. */
  private async commitBatch(entries: PendingCommit[]): Promise<void> {
    const applied: {
      entry: PendingCommit;
      update: Uint8Array;
      /** The server's change removing the entry's old-layout records (and the statuses their sales set). */
      removal: Uint8Array | null;
      compensation: Uint8Array | null;
      notices: CompensationNotice[];
      cost: number;
    }[] = [];
    const logged: LoggedUpdate[] = [];
    const history: HistoryStep[] = [];
    const batch = nothingPending();
    /** Ledger entries whose document effects this batch's commit brings (ledger/old-layout.ts). */
    const effectIds: string[] = [];
    // The last valid state of entities changed earlier in this batch: the projection does not
    // have it yet, and a compensation must not roll back past it.
    const validInBatch: LastValid = new Map();
    for (const entry of entries) {
      let transacted: Transacted;
      try {
        await entry.precheck?.();
        transacted = this.transact(entry.change, entry.origin);
      } catch (error) {
        if (this.broken) {
          // This change threw halfway through: its sender is refused (a stock client then stops
          // resending it, which would break the document again), everyone else reconnects.
          refuse(entry, new RefusedUpdateError('The update could not be applied'));
          return this.failBatch(entries, error);
        }
        refuse(entry, error);
        continue;
      }
      const { update, pending: touched } = transacted;
      if (!update) {
        settle(entry, null);
        continue;
      }
      let removal: Uint8Array | null = null;
      let compensation: Uint8Array | null = null;
      const notices: CompensationNotice[] = [];
      let cost = 0;
      let writes = transacted.writes;
      try {
        const moved = movedIn(touched.changes);
        if (moved) {
          // Layout 3: recorded in the ledger (committed) before the document change is logged, so
          // nothing is acknowledged before it is durable; a failure after it resends, and the
          // ledger answers the same entries as duplicates.
          const { effects, notices: notTaken } = await this.oldLayout.record(this.doc, moved, originUserId(entry.origin));
          notices.push(...notTaken);
          effectIds.push(...effects.map((effect) => effect.id));
          const removed = this.transact((doc) => removeMoved(doc, moved, effects), { kind: 'validation' });
          removal = removed.update;
          mergePending(touched, removed.pending);
          touched.changes = withoutMoved(touched.changes);
          writes = writes.filter((write) => !moved.has(write.collection));
        }
        const plans = await planCompensations(
          this.doc,
          touched,
          this.references,
          this.lastValidFrom(this.store),
          validInBatch,
          this.authorOf(entry.origin),
        );
        if (plans.length > 0) {
          const compensated = this.transact((doc) => applyCompensations(doc, plans), { kind: 'validation' });
          compensation = compensated.update;
          notices.push(...noticesOf(plans, touched.changes));
          cost = costOf(plans, touched.changes);
          mergePending(touched, compensated.pending);
        }
        rememberValid(this.doc, touched.changes, validInBatch);
        const steps = historySteps(this.doc, withWritten(touched, writes), originUserId(entry.origin));
        markConflicts(steps, writes);
        history.push(...steps);
        mergePending(batch, touched);
      } catch (error) {
        return this.failBatch(entries, error);
      }
      logged.push({ update, userId: originUserId(entry.origin) });
      if (removal) logged.push({ update: removal, userId: originUserId(entry.origin) });
      if (compensation) logged.push({ update: compensation, userId: null });
      applied.push({ entry, update, removal, compensation, notices, cost });
    }
    if (logged.length === 0) return;
    const fromPeers: Uint8Array[] = [];
    try {
      const seq = await this.store.append(this.name, this.lastSeq, logged, { doc: this.doc, changes: batch.changes, history });
      this.lastSeq = seq ?? (await this.persistAfterPeers(logged, batch, validInBatch, fromPeers, history));
    } catch (error) {
      return this.failBatch(entries, error);
    }
    this.reachedPosition(this.lastSeq);
    this.compactWhenDue();
    if (effectIds.length > 0) {
      // Left pending, an effect is only brought again by a repeated push, where it changes nothing.
      await this.oldLayout
        .done(effectIds)
        .catch((error: unknown) => console.warn('Marking ledger effects done failed:', (error as Error).message));
    }
    for (const update of fromPeers) for (const subscriber of this.subscribers) subscriber.sendUpdate(update);
    for (const { entry, update, removal, compensation, notices, cost } of applied) {
      const { origin } = entry;
      for (const subscriber of this.subscribers) {
        const isSender = origin.kind === 'connection' && origin.connectionId === subscriber.id;
        if (!isSender) subscriber.sendUpdate(update);
        if (removal) subscriber.sendUpdate(removal);
        if (compensation) subscriber.sendUpdate(compensation);
        if (isSender && cost > 0) subscriber.chargeInvalid?.(cost);
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
  private persistAfterPeers(
    logged: LoggedUpdate[],
    batch: Pending,
    validInBatch: LastValid,
    fromPeers: Uint8Array[],
    history: HistoryStep[],
  ): Promise<bigint> {
    return this.store.locked(this.name, async (locked) => {
      const peers = await this.takeInPeerUpdates(locked);
      if (peers.update) fromPeers.push(peers.update);
      mergePending(batch, peers.pending);
      // Another instance recorded its old-layout writes in the ledger and removed them (layout 3).
      batch.changes = withoutMoved(batch.changes);
      const plans = await planCompensations(this.doc, batch, this.references, this.lastValidFrom(locked), validInBatch);
      if (plans.length > 0) {
        const compensation = this.transact((doc) => applyCompensations(doc, plans), { kind: 'validation' });
        mergePending(batch, compensation.pending);
        if (compensation.update) {
          logged.push({ update: compensation.update, userId: null });
          fromPeers.push(compensation.update);
        }
      }
      const seq = await locked.append(this.name, this.lastSeq, logged, { doc: this.doc, changes: batch.changes, history });
      if (seq === null) throw new Error('The update log moved while locked');
      return seq;
    });
  }

  /**
   * The in-memory document now holds changes the store does not: drop it and let devices
   * reconnect to a fresh copy; they still hold their changes and resend them.
   */
  private failBatch(entries: PendingCommit[], error: unknown): never {
    this.markBroken();
    const failure = new DocumentUnavailableError(`Could not save the change: ${error instanceof Error ? error.message : String(error)}`);
    for (const entry of entries) refuse(entry, failure);
    throw failure;
  }

  /**
   * One Yjs transaction; returns the update it produced (null when nothing changed) and what
   * the observers saw it change. The only place that takes (and resets) `pending`.
   */
  private transact(change: (doc: Y.Doc) => void, origin: ChangeOrigin): Transacted {
    const captured: Uint8Array[] = [];
    const capture = (update: Uint8Array) => captured.push(update);
    let pending: Pending;
    let writes: FieldWrite[] = [];
    // Read while the transaction's items still hold their content (collected after this event).
    const detect = (transaction: Y.Transaction) => {
      if (transaction.origin === origin) writes = fieldWrites(transaction);
    };
    const detecting = origin.kind === 'connection' || origin.kind === 'rest';
    if (detecting) this.doc.on('afterTransaction', detect);
    this.doc.on('update', capture);
    try {
      this.doc.transact(() => change(this.doc), origin);
    } catch (error) {
      // A change that refuses before writing leaves nothing behind. One that wrote and then
      // threw left the document ahead of the store: reload it rather than keep that state.
      if (captured.length > 0) this.markBroken();
      throw error;
    } finally {
      this.doc.off('update', capture);
      if (detecting) this.doc.off('afterTransaction', detect);
      pending = this.pending;
      this.pending = nothingPending();
    }
    const update = captured.length === 0 ? null : captured.length === 1 ? captured[0]! : Y.mergeUpdates(captured);
    return { update, pending, writes };
  }

  /**
   * Queues a compaction once enough updates have been logged since the last snapshot. Only
   * its position is taken in the queue: the snapshot is encoded on the sync answers' thread
   * from the document as it is there (state-answers.ts), and written while commits go on
   * (the log after the snapshot's position stays; an older snapshot never replaces a newer).
   */
  private compactWhenDue(): void {
    if (this.lastSeq - this.snapshotSeq < this.compactEvery || this.compacting) return;
    this.compacting = true;
    this.compaction = this.run(() => ({ upto: this.lastSeq, state: this.answers.wholeDocument() }))
      .then(async ({ upto, state }) => {
        await this.store.compact(this.name, await state, upto);
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
