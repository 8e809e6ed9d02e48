import { isUuid, type Collection } from '../../../shared/index.ts';
import {
  MAX_UPDATES_PER_COMMIT,
  type DocumentStore,
  type LockedDocument,
  type LoggedUpdate,
  type Projection,
  type StoredUpdates,
} from './document-store.ts';
import { DocumentEpoch } from './epoch.ts';
import { MemoryProjection, UndoLog } from './memory-projection.ts';

type MemoryDocument = {
  lastSeq: bigint;
  checkedRules: number;
  /** The log after the snapshot, in order. */
  log: { seq: bigint; update: Uint8Array; userId: string | null }[];
  snapshot: { state: Uint8Array; uptoSeq: bigint } | null;
  epoch?: DocumentEpoch;
};

type Listener = (name: string, seq: bigint) => void;

/**
 * What several MemoryDocumentStores share, as instances share one Postgres: the documents,
 * the projection, the listeners. One lock serialises every operation, so a reader never sees
 * a transaction that has not ended.
 */
export class MemoryDatabase {
  readonly documents = new Map<string, MemoryDocument>();
  readonly projection = new MemoryProjection();
  readonly listeners = new Set<Listener>();
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `job` alone; what it changed through the undo log is undone if it throws, and its announcements are made if it does not. */
  transaction<T>(job: (undo: UndoLog, announce: (name: string, seq: bigint) => void) => T | Promise<T>): Promise<T> {
    const result = this.tail.then(async () => {
      const undo = new UndoLog();
      const announcements: [string, bigint][] = [];
      try {
        const value = await job(undo, (name, seq) => announcements.push([name, seq]));
        // Delivered later, as Postgres delivers NOTIFY after the commit.
        for (const [name, seq] of announcements) setTimeout(() => this.listeners.forEach((listener) => listener(name, seq)), 0);
        return value;
      } catch (error) {
        undo.undo();
        throw error;
      }
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  document(name: string): MemoryDocument {
    const document = this.documents.get(name);
    if (!document) throw new Error(`Document ${name} is not registered`);
    return document;
  }
}

/** The reads and the append, run inside a transaction of the memory database. */
class MemoryAccess {
  constructor(
    protected readonly database: MemoryDatabase,
    protected readonly undo: UndoLog,
    protected readonly announce: (name: string, seq: bigint) => void,
  ) {}

  readSince(name: string, afterSeq: bigint): StoredUpdates {
    const document = this.database.documents.get(name);
    const snapshot = document?.snapshot && document.snapshot.uptoSeq > afterSeq ? document.snapshot : null;
    const snapshotSeq = snapshot?.uptoSeq ?? afterSeq;
    const updates = (document?.log ?? []).filter((entry) => entry.seq > snapshotSeq);
    return {
      snapshot: snapshot?.state ?? null,
      updates: updates.map((entry) => entry.update),
      lastSeq: updates.at(-1)?.seq ?? snapshotSeq,
      snapshotSeq,
    };
  }

  append(name: string, expectedSeq: bigint, updates: LoggedUpdate[], projection: Projection): bigint | null {
    if (updates.length === 0 || updates.length > MAX_UPDATES_PER_COMMIT) {
      throw new Error(`appendUpdates takes 1 to ${MAX_UPDATES_PER_COMMIT} updates, not ${updates.length}`);
    }
    // The log's user column holds UUIDs: anything else fails the append, as in Postgres.
    const wrongUser = updates.find(({ userId }) => userId !== null && !isUuid(userId));
    if (wrongUser) throw new Error(`invalid input syntax for type uuid: "${wrongUser.userId}"`);
    const document = this.database.documents.get(name);
    if (!document || document.lastSeq !== expectedSeq) return null;
    const logged = updates.map(({ update, userId }, index) => ({ seq: expectedSeq + BigInt(index + 1), update, userId }));
    const lastSeq = expectedSeq + BigInt(updates.length);
    this.undo.assign(document, 'log', [...document.log, ...logged]);
    this.undo.assign(document, 'lastSeq', lastSeq);
    this.database.projection.write(projection, this.undo);
    this.announce(name, lastSeq);
    return lastSeq;
  }

  lastValid(collection: Collection, ids: string[]) {
    return this.database.projection.lastValid(collection, ids);
  }
}

/**
 * The document store in memory, for unit tests of the document host and the planner. Two
 * stores on one MemoryDatabase behave as two instances sharing Postgres (the log lock,
 * appends heard by both). Nothing survives the process.
 */
export class MemoryDocumentStore implements DocumentStore {
  constructor(readonly database: MemoryDatabase = new MemoryDatabase()) {}

  private run<T>(job: (access: MemoryAccess, undo: UndoLog) => T): Promise<T> {
    return this.database.transaction((undo, announce) => job(new MemoryAccess(this.database, undo, announce), undo));
  }

  load(name: string): Promise<StoredUpdates> {
    return this.run((access, undo) => {
      if (!this.database.documents.has(name))
        undo.set(this.database.documents, name, { lastSeq: 0n, checkedRules: 0, log: [], snapshot: null });
      return access.readSince(name, 0n);
    });
  }

  readSince(name: string, afterSeq: bigint): Promise<StoredUpdates> {
    return this.run((access) => access.readSince(name, afterSeq));
  }

  lastValid(collection: Collection, ids: string[]) {
    return this.run((access) => access.lastValid(collection, ids));
  }

  append(name: string, expectedSeq: bigint, updates: LoggedUpdate[], projection: Projection): Promise<bigint | null> {
    return this.run((access) => access.append(name, expectedSeq, updates, projection));
  }

  epoch(name: string): Promise<DocumentEpoch> {
    return this.run(() => this.database.documents.get(name)?.epoch ?? new DocumentEpoch());
  }

  compact(name: string, state: Uint8Array, uptoSeq: bigint): Promise<void> {
    return this.run((_access, undo) => {
      const document = this.database.document(name);
      if (!document.snapshot || document.snapshot.uptoSeq < uptoSeq) undo.assign(document, 'snapshot', { state, uptoSeq });
      undo.assign(
        document,
        'log',
        document.log.filter((entry) => entry.seq > uptoSeq),
      );
    });
  }

  locked<T>(name: string, job: (document: LockedDocument) => Promise<T>): Promise<T> {
    return this.database.transaction(async (undo, announce) => {
      const document = this.database.document(name);
      const access = new MemoryAccess(this.database, undo, announce);
      const locked: LockedDocument = {
        position: document.lastSeq,
        checkedRules: document.checkedRules,
        readSince: async (doc, afterSeq) => access.readSince(doc, afterSeq),
        lastValid: async (collection, ids) => access.lastValid(collection, ids),
        append: async (doc, expectedSeq, updates, projection) => access.append(doc, expectedSeq, updates, projection),
        setCheckedRules: async (version) => undo.assign(document, 'checkedRules', version),
      };
      return job(locked);
    });
  }

  positions(): Promise<Map<string, bigint>> {
    return this.run(() => new Map([...this.database.documents].map(([name, document]) => [name, document.lastSeq])));
  }

  async listen(onAppend: (name: string, seq: bigint) => void, onListening?: () => void): Promise<() => Promise<void>> {
    const listener: Listener = (name, seq) => onAppend(name, seq);
    this.database.listeners.add(listener);
    onListening?.();
    return async () => void this.database.listeners.delete(listener);
  }
}
