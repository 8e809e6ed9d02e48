import * as Y from 'yjs';
import type { Collection, EntityChanges } from '../../../shared/index.ts';
import type { DocumentEpoch } from './epoch.ts';
import type { HistoryStep } from './history.ts';

/**
 * What the document host needs from storage (docs/architecture.md "The document store"):
 * an append-only update log per document, folded into a snapshot now and then, and the
 * relational projection that every append rewrites for the entities it changed. Two
 * implementations: PostgresDocumentStore (Postgres and PGlite, one SQL path) and
 * MemoryDocumentStore (unit tests). Both pass test/document-store.contract.test.ts.
 */

/** What a document at some log position lacks. */
export type StoredUpdates = {
  /** The latest snapshot, when it covers updates after the asked position. */
  snapshot: Uint8Array | null;
  /** Updates after the asked position (and after the snapshot), in log order. */
  updates: Uint8Array[];
  /** The log position all of the above brings a document to. */
  lastSeq: bigint;
  snapshotSeq: bigint;
};

/** One update for the log, and the user whose change it was (null: the server's own). */
export type LoggedUpdate = { update: Uint8Array; userId: string | null };

/**
 * The entities whose projection an append rewrites, read from `doc` as it is when appending,
 * and what each change did to them, for the change history ([T1], history.ts).
 */
export type Projection = { doc: Y.Doc; changes: EntityChanges; history?: HistoryStep[] };

/** Last valid fields of entities by id: the projection row, else the tombstone its removal left. */
export type LastValidStates = Map<string, Record<string, unknown>>;

/** At most this many updates go into one append. */
export const MAX_UPDATES_PER_COMMIT = 1000;

/** What can be done both outside and under a document's log lock. */
export interface DocumentAccess {
  /**
   * What a document at log position `afterSeq` lacks: the snapshot if it reaches past it, and
   * the updates after both. One consistent view.
   */
  readSince(name: string, afterSeq: bigint): Promise<StoredUpdates>;
  /** The last valid states of entities (field names, `id` included); ids that are not entity ids are skipped. */
  lastValid(collection: Collection, ids: string[]): Promise<LastValidStates>;
  /**
   * Logs 1 to MAX_UPDATES_PER_COMMIT updates and rewrites the projection of `projection.changes`,
   * all or nothing, only if the log still ends at `expectedSeq`; then tells every listener.
   * Returns the new last position, or null (nothing written) when the log has moved on.
   */
  append(name: string, expectedSeq: bigint, updates: LoggedUpdate[], projection: Projection): Promise<bigint | null>;
}

/**
 * A document under its log lock: no one else appends until the job ends; what it writes
 * commits when it resolves, and none of it if it throws.
 */
export interface LockedDocument extends DocumentAccess {
  /** The log position when the lock was taken. */
  readonly position: bigint;
  /** The version of the sync rules the whole document was last checked under (0: never). */
  readonly checkedRules: number;
  setCheckedRules(version: number): Promise<void>;
}

export interface DocumentStore extends DocumentAccess {
  /** Registers the document if it is new, and reads all of it (snapshot and log). */
  load(name: string): Promise<StoredUpdates>;
  /** The document's epoch and the client ids of its earlier ones (epoch.ts); set by `npm run rebuild-document` only. */
  epoch(name: string): Promise<DocumentEpoch>;
  /** Replaces the log up to `uptoSeq` by `state`; an older snapshot never replaces a newer one. */
  compact(name: string, state: Uint8Array, uptoSeq: bigint): Promise<void>;
  /** Runs `job` holding the (loaded) document's log lock, in one transaction. */
  locked<T>(name: string, job: (document: LockedDocument) => Promise<T>): Promise<T>;
  /** Every document's log position (what a listener that may have missed appends compares with). */
  positions(): Promise<Map<string, bigint>>;
  /**
   * Hears every append to the store, by this or any other instance sharing it, once it is
   * durable. `onListening` runs whenever listening (re)starts. Resolves with a stop function.
   */
  listen(onAppend: (name: string, seq: bigint) => void, onListening?: () => void): Promise<() => Promise<void>>;
}

/** Applies stored updates to `doc` in one transaction (one by one is far slower). */
export function applyStored(doc: Y.Doc, stored: StoredUpdates, origin: unknown): void {
  doc.transact(() => {
    if (stored.snapshot) Y.applyUpdate(doc, stored.snapshot);
    for (const update of stored.updates) Y.applyUpdate(doc, update);
  }, origin);
}
