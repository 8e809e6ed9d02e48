import type { Table } from 'dexie';
import type * as Y from 'yjs';
import { collectionMap, observeEntities, readEntity, type EntityFields, type Horse } from '../../../shared/index.ts';
import { PROJECTED_COLLECTIONS, type ProjectedCollection, type RanchDb } from './db.ts';
import { horseSearchRow } from './horse-search.ts';

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

/** Rows per bulkPut: one transaction still holds a whole batch, in bounded pieces. */
const CHUNK = 2000;

type Snapshot = { collection: ProjectedCollection; present: EntityFields[]; removed: string[] };

function entityRows(doc: Y.Doc, collection: ProjectedCollection, ids: Iterable<string>): Snapshot {
  const map = collectionMap(doc, collection);
  const present: EntityFields[] = [];
  const removed: string[] = [];
  for (const id of ids) {
    const entity = map.get(id);
    if (entity === undefined) removed.push(id);
    else present.push(readEntity(entity));
  }
  return { collection, present, removed };
}

/** The tables a write touches: a collection's own, and the horse name index with horses. */
const tablesOf = (db: RanchDb, collections: Iterable<ProjectedCollection>): Table[] =>
  [...collections].flatMap((c) => (c === 'horses' ? [db.horses, db.horseSearch] : [db.table(c)]));

/** Writes the snapshots in one rw transaction, chunked bulkPut/bulkDelete. */
async function writeSnapshots(db: RanchDb, snapshots: Snapshot[]): Promise<void> {
  const work = snapshots.filter((s) => s.present.length > 0 || s.removed.length > 0);
  if (work.length === 0) return;
  await db.transaction('rw', tablesOf(db, work.map((s) => s.collection)), async () => {
    for (const { collection, present, removed } of work) {
      const table = db.table<EntityFields, string>(collection);
      for (let i = 0; i < present.length; i += CHUNK) {
        const chunk = present.slice(i, i + CHUNK);
        await table.bulkPut(chunk);
        if (collection === 'horses') await db.horseSearch.bulkPut(chunk.map((row) => horseSearchRow(row as Horse)));
      }
      for (let i = 0; i < removed.length; i += CHUNK) {
        const chunk = removed.slice(i, i + CHUNK);
        await table.bulkDelete(chunk);
        if (collection === 'horses') await db.horseSearch.bulkDelete(chunk);
      }
    }
  });
}

/** performance.measure for batches worth timing (the bench reads them; cheap otherwise). */
function measure(name: string, start: number, rows: number): void {
  if (rows >= 1000) performance.measure(`projection:${name} (${rows} rows)`, { start, end: performance.now() });
}

async function writeChanged(doc: Y.Doc, db: RanchDb, batch: Map<ProjectedCollection, Set<string>>): Promise<void> {
  const started = performance.now();
  // Read every row before the first await, so the batch is one consistent state of the doc.
  const snapshots = [...batch].map(([collection, ids]) => entityRows(doc, collection, ids));
  const rows = snapshots.reduce((sum, s) => sum + s.present.length + s.removed.length, 0);
  measure('read doc', started, rows);
  const writing = performance.now();
  await writeSnapshots(db, snapshots);
  measure('write', writing, rows);
}

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && JSON.stringify(a) === JSON.stringify(b));

function sameRow(a: EntityFields, b: EntityFields | undefined): boolean {
  if (!b) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => sameValue(a[key], b[key]));
}

/**
 * Makes every table equal to the document, writing only the rows that differ. At start
 * the tables usually already match (they persist across reloads), so nothing is written,
 * no live query re-runs, and screens keep reading while this compares; the comparison
 * reads in a read-only transaction, one table at a time.
 */
async function reconcileAll(doc: Y.Doc, db: RanchDb): Promise<void> {
  const started = performance.now();
  const snapshots: Snapshot[] = [];
  for (const collection of PROJECTED_COLLECTIONS) {
    const table = db.table<EntityFields, string>(collection);
    const [stored, indexed] = await db.transaction('r', tablesOf(db, [collection]), () =>
      Promise.all([table.toArray(), collection === 'horses' ? db.horseSearch.toCollection().primaryKeys() : Promise.resolve([])]),
    );
    const byId = new Map(stored.map((row) => [row.id as string, row]));
    const searchable = new Set(indexed);
    const map = collectionMap(doc, collection);
    const snapshot: Snapshot = { collection, present: [], removed: [] };
    for (const [id, entity] of map) {
      const row = readEntity(entity);
      if (!sameRow(row, byId.get(id)) || (collection === 'horses' && !searchable.has(id))) snapshot.present.push(row);
    }
    for (const id of byId.keys()) if (!map.has(id)) snapshot.removed.push(id);
    if (collection === 'horses') for (const id of searchable) if (!map.has(id) && !byId.has(id)) snapshot.removed.push(id);
    snapshots.push(snapshot);
  }
  // The rows read above may have changed in the doc since: those ids are dirty again and
  // the next batch rewrites them from the doc.
  const differing = snapshots.reduce((sum, s) => sum + s.present.length + s.removed.length, 0);
  await writeSnapshots(db, snapshots);
  performance.measure(`projection:reconcile (${differing} rows differed)`, { start: started, end: performance.now() });
}
