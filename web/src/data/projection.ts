import type * as Y from 'yjs';
import { collectionMap, observeEntities, readEntity, type EntityFields } from '../../../shared/index.ts';
import { PROJECTED_COLLECTIONS, type ProjectedCollection, type RanchDb } from './db.ts';

export type Projection = {
  /** Resolves when the tables match the document as loaded from this device. */
  ready: Promise<void>;
  /** Resolves when every change seen so far is written to the tables. */
  idle(): Promise<void>;
  stop(): void;
};

type Dirty = Map<ProjectedCollection, Set<string>> | 'all';

const isProjected = (collection: string): collection is ProjectedCollection =>
  (PROJECTED_COLLECTIONS as readonly string[]).includes(collection);

/**
 * Keeps the Dexie tables equal to the Y.Doc; nothing else writes them. After the local
 * document has loaded, every table is reconciled in bulk; from then on only the ids a
 * transaction touched are rewritten.
 *
 * Writes read the document when they run, not when the change was observed, and run
 * one batch at a time: whatever order batches finish in, the last one leaves the rows
 * equal to the current document, and bursts (a first sync of thousands of horses)
 * collapse into few Dexie transactions.
 */
export function startProjection(doc: Y.Doc, db: RanchDb, loaded: Promise<unknown>): Projection {
  let dirty: Dirty | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let started = false;

  const markDirty = (collection: ProjectedCollection, ids: Iterable<string>) => {
    if (dirty === 'all') return;
    dirty ??= new Map();
    let set = dirty.get(collection);
    if (!set) dirty.set(collection, (set = new Set()));
    for (const id of ids) set.add(id);
  };

  const flush = (): Promise<void> => {
    running = running
      .then(async () => {
        if (stopped || dirty === null) return;
        const batch = dirty;
        dirty = null;
        await (batch === 'all' ? reconcileAll(doc, db) : writeChanged(doc, db, batch));
      })
      .catch((error: unknown) => {
        // The rows may now be stale; the next change triggers a full reconcile, and the
        // document itself (the source of truth) is unaffected.
        dirty = 'all';
        console.error('Projection to IndexedDB failed', error);
      });
    return running;
  };

  const stopObserving = observeEntities(doc, (changes) => {
    for (const [collection, ids] of changes) {
      if (isProjected(collection)) markDirty(collection, ids);
    }
    // Before the first reconcile there is nothing to patch: the reconcile covers it.
    if (started) void flush();
  });

  const ready = loaded.then(() => {
    started = true;
    dirty = 'all';
    return flush();
  });

  return {
    ready,
    idle: async () => {
      await ready;
      await running;
    },
    stop: () => {
      stopped = true;
      stopObserving();
    },
  };
}

function entityRows(doc: Y.Doc, collection: ProjectedCollection, ids: Iterable<string>) {
  const map = collectionMap(doc, collection);
  const present: EntityFields[] = [];
  const removed: string[] = [];
  for (const id of ids) {
    const entity = map.get(id);
    if (entity === undefined) removed.push(id);
    else present.push(readEntity(entity));
  }
  return { present, removed };
}

async function writeChanged(doc: Y.Doc, db: RanchDb, batch: Map<ProjectedCollection, Set<string>>): Promise<void> {
  const collections = [...batch.keys()];
  await db.transaction('rw', collections.map((c) => db.table(c)), async () => {
    for (const [collection, ids] of batch) {
      const { present, removed } = entityRows(doc, collection, ids);
      const table = db.table<EntityFields, string>(collection);
      if (present.length > 0) await table.bulkPut(present);
      if (removed.length > 0) await table.bulkDelete(removed);
    }
  });
}

async function reconcileAll(doc: Y.Doc, db: RanchDb): Promise<void> {
  await db.transaction('rw', PROJECTED_COLLECTIONS.map((c) => db.table(c)), async () => {
    for (const collection of PROJECTED_COLLECTIONS) {
      const map = collectionMap(doc, collection);
      const table = db.table<EntityFields, string>(collection);
      const { present } = entityRows(doc, collection, map.keys());
      const stale = (await table.toCollection().primaryKeys()).filter((id) => !map.has(id));
      if (stale.length > 0) await table.bulkDelete(stale);
      if (present.length > 0) await table.bulkPut(present);
    }
  });
}
