import type { Table } from 'dexie';
import type * as Y from 'yjs';
import { collectionMap, observeEntities, readEntity, type EntityFields } from '../../../shared/index.ts';
import { PROJECTED_COLLECTIONS, type ProjectedCollection, type RanchDb } from './db.ts';
import { timeSlices, type TimeSlices } from './time-slices.ts';

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

const rowsOf = (snapshots: Snapshot[]) => snapshots.reduce((sum, s) => sum + s.present.length + s.removed.length, 0);

/**
 * A large batch (a first sync: 66,000 rows, ~8 s of IndexedDB writes) is written as two
 * transactions, what the horse list shows first: lookups, suppliers and horses can be
 * listed while buyers, sales and payments are still being written. Every table is
 * written after the tables it refers to, and sales commit together with their payments.
 * Smaller batches stay one transaction.
 */
export const SPLIT_FROM_ROWS = 5000;
const WRITE_ORDER: ProjectedCollection[][] = [
  ['breeds', 'colors', 'genders', 'statuses', 'owners', 'horses'],
  ['buyers', 'sales', 'payments'],
];

/** Writes the snapshots, chunked bulkPut/bulkDelete, in one rw transaction (or two, see above). */
async function writeSnapshots(db: RanchDb, snapshots: Snapshot[]): Promise<void> {
  const work = snapshots.filter((s) => s.present.length > 0 || s.removed.length > 0);
  if (work.length === 0) return;
  const groups =
    rowsOf(work) < SPLIT_FROM_ROWS
      ? [work]
      : WRITE_ORDER.map((collections) => collections.flatMap((c) => work.filter((s) => s.collection === c))).filter((g) => g.length > 0);
  for (const group of groups) await writeInOneTransaction(db, group);
}

async function writeInOneTransaction(db: RanchDb, work: Snapshot[]): Promise<void> {
  const started = performance.now();
  await db.transaction('rw', work.map((s) => db.table(s.collection)), async () => {
    for (const { collection, present, removed } of work) {
      const table = db.table<EntityFields, string>(collection);
      for (let i = 0; i < present.length; i += CHUNK) await table.bulkPut(present.slice(i, i + CHUNK));
      for (let i = 0; i < removed.length; i += CHUNK) await table.bulkDelete(removed.slice(i, i + CHUNK));
    }
  });
  measure(`commit ${work.map((s) => s.collection).join(', ')}`, started, rowsOf(work));
}

/** performance.measure for batches worth timing (the bench reads them; cheap otherwise). */
function measure(name: string, start: number, rows: number): void {
  if (rows >= 1000) performance.measure(`projection:${name} (${rows} rows)`, { start, end: performance.now() });
}

async function writeChanged(doc: Y.Doc, db: RanchDb, batch: Map<ProjectedCollection, Set<string>>): Promise<void> {
  const started = performance.now();
  // Read every row before the first await, so the batch is one consistent state of the doc.
  const snapshots = [...batch].map(([collection, ids]) => entityRows(doc, collection, ids));
  const rows = rowsOf(snapshots);
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

/** Rows read per request when comparing: a 50,000-row getAll would hold the main thread. */
export const READ_PAGE = 5000;

/** Every row of a table, read a page at a time in primary key order. */
async function readAll(table: Table<EntityFields, string>, slices: TimeSlices): Promise<Map<string, EntityFields>> {
  const byId = new Map<string, EntityFields>();
  let after: string | null = null;
  for (;;) {
    const page: EntityFields[] = await (after === null ? table.orderBy(':id') : table.where(':id').above(after)).limit(READ_PAGE).toArray();
    for (const row of page) byId.set(row.id as string, row);
    if (page.length < READ_PAGE) return byId;
    after = page[page.length - 1]!.id as string;
    if (slices.due()) await slices.pause();
  }
}

/**
 * Makes every table equal to the document, writing only the rows that differ. At start
 * the tables usually already match (they persist across reloads), so nothing is written,
 * no live query re-runs, and screens keep reading while this compares. The comparison
 * (66,000 rows at ranch scale, about a second) runs in slices of a few milliseconds, so
 * typing in the first seconds after opening is not held up by it.
 */
async function reconcileAll(doc: Y.Doc, db: RanchDb): Promise<void> {
  const started = performance.now();
  const slices = timeSlices();
  const snapshots: Snapshot[] = [];
  for (const collection of PROJECTED_COLLECTIONS) {
    const byId = await readAll(db.table<EntityFields, string>(collection), slices);
    const map = collectionMap(doc, collection);
    const snapshot: Snapshot = { collection, present: [], removed: [] };
    for (const id of [...map.keys()]) {
      const entity = map.get(id);
      if (entity !== undefined) {
        const row = readEntity(entity);
        if (!sameRow(row, byId.get(id))) snapshot.present.push(row);
      }
      if (slices.due()) await slices.pause();
    }
    for (const id of byId.keys()) if (!map.has(id)) snapshot.removed.push(id);
    snapshots.push(snapshot);
  }
  // The document may change between slices: whatever changed after its row was read is
  // dirty again, and the next batch rewrites it from the doc.
  await writeSnapshots(db, snapshots);
  performance.measure(`projection:reconcile (${rowsOf(snapshots)} rows differed)`, { start: started, end: performance.now() });
}
