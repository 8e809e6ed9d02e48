import type { Table } from 'dexie';
import type * as Y from 'yjs';
import { collectionMap, observeEntities, readEntity, type EntityFields } from '../../../shared/index.ts';
import { PROJECTED_COLLECTIONS, tableOf, type ProjectedCollection, type RanchDb, type ReadTable } from './db.ts';
import { PaymentGroups } from './sale-payments.ts';
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
  const groups = new PaymentGroups();

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
        await (batch === 'all' ? reconcileAll(doc, db, groups) : writeChanged(doc, db, groups, batch));
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

/** Rows to put into one table and primary keys to delete from it. */
type Snapshot = { table: ReadTable; present: EntityFields[]; removed: string[] };

function entityRows(doc: Y.Doc, collection: ProjectedCollection, ids: Iterable<string>): Snapshot {
  const map = collectionMap(doc, collection);
  const present: EntityFields[] = [];
  const removed: string[] = [];
  for (const id of ids) {
    const entity = map.get(id);
    if (entity === undefined) removed.push(id);
    else present.push(readEntity(entity));
  }
  return { table: tableOf(collection), present, removed };
}

/** The rows of the sales whose payments are among `paymentIds` (sale-payments.ts). */
function salePaymentRows(doc: Y.Doc, groups: PaymentGroups, paymentIds: Iterable<string>): Snapshot {
  const snapshot: Snapshot = { table: 'salePayments', present: [], removed: [] };
  for (const saleKey of groups.touch(doc, paymentIds)) {
    const row = groups.row(doc, saleKey);
    if (row) snapshot.present.push(row as unknown as EntityFields);
    else snapshot.removed.push(saleKey);
  }
  return snapshot;
}

const changedRows = (doc: Y.Doc, groups: PaymentGroups, collection: ProjectedCollection, ids: Iterable<string>): Snapshot =>
  collection === 'payments' ? salePaymentRows(doc, groups, ids) : entityRows(doc, collection, ids);

const rowsOf = (snapshots: Snapshot[]) => snapshots.reduce((sum, s) => sum + s.present.length + s.removed.length, 0);

/**
 * A large batch (a first sync: 21,000 rows, ~2–3 s of IndexedDB writes) is written as two
 * transactions, what the horse list shows first: lookups, suppliers and horses can be
 * listed while buyers, sales and payments are still being written. Every table is
 * written after the tables it refers to, and sales commit together with their payments.
 * Smaller batches stay one transaction.
 */
export const SPLIT_FROM_ROWS = 5000;
const WRITE_ORDER: ReadTable[][] = [
  ['breeds', 'colors', 'genders', 'statuses', 'owners', 'horses'],
  ['buyers', 'sales', 'salePayments'],
];

/** Writes the snapshots, chunked bulkPut/bulkDelete, in one rw transaction (or two, see above). */
async function writeSnapshots(db: RanchDb, snapshots: Snapshot[]): Promise<void> {
  const work = snapshots.filter((s) => s.present.length > 0 || s.removed.length > 0);
  if (work.length === 0) return;
  const transactions =
    rowsOf(work) < SPLIT_FROM_ROWS
      ? [work]
      : WRITE_ORDER.map((tables) => tables.flatMap((t) => work.filter((s) => s.table === t))).filter((g) => g.length > 0);
  for (const transaction of transactions) await writeInOneTransaction(db, transaction);
}

async function writeInOneTransaction(db: RanchDb, work: Snapshot[]): Promise<void> {
  const started = performance.now();
  await db.transaction('rw', work.map((s) => db.table(s.table)), async () => {
    for (const { table: name, present, removed } of work) {
      const table = db.table<EntityFields, string>(name);
      for (let i = 0; i < present.length; i += CHUNK) await table.bulkPut(present.slice(i, i + CHUNK));
      for (let i = 0; i < removed.length; i += CHUNK) await table.bulkDelete(removed.slice(i, i + CHUNK));
    }
  });
  measure(`commit ${work.map((s) => s.table).join(', ')}`, started, rowsOf(work));
}

/** performance.measure for batches worth timing (the bench reads them; cheap otherwise). */
function measure(name: string, start: number, rows: number): void {
  if (rows >= 1000) performance.measure(`projection:${name} (${rows} rows)`, { start, end: performance.now() });
}

async function writeChanged(doc: Y.Doc, db: RanchDb, groups: PaymentGroups, batch: Map<ProjectedCollection, Set<string>>): Promise<void> {
  const started = performance.now();
  // Read every row before the first await, so the batch is one consistent state of the doc.
  const snapshots = [...batch].map(([collection, ids]) => changedRows(doc, groups, collection, ids));
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

/** Every row of a table by primary key, read a page at a time in primary key order. */
async function readAll(table: Table<EntityFields, string>, slices: TimeSlices): Promise<Map<string, EntityFields>> {
  const keyPath = table.schema.primKey.keyPath as string;
  const byKey = new Map<string, EntityFields>();
  let after: string | null = null;
  for (;;) {
    const page: EntityFields[] = await (after === null ? table.orderBy(':id') : table.where(':id').above(after)).limit(READ_PAGE).toArray();
    for (const row of page) byKey.set(row[keyPath] as string, row);
    if (page.length < READ_PAGE) return byKey;
    after = page[page.length - 1]![keyPath] as string;
    if (slices.due()) await slices.pause();
  }
}

/** Puts what differs from `existing` into `snapshot`, and what `existing` has beyond `keys`. */
async function compareRows(
  snapshot: Snapshot,
  existing: Map<string, EntityFields>,
  keys: Iterable<string>,
  rowOf: (key: string) => EntityFields | null,
  slices: TimeSlices,
): Promise<void> {
  const present = new Set<string>();
  for (const key of keys) {
    const row = rowOf(key);
    if (row !== null) {
      present.add(key);
      if (!sameRow(row, existing.get(key))) snapshot.present.push(row);
    }
    if (slices.due()) await slices.pause();
  }
  for (const key of existing.keys()) if (!present.has(key)) snapshot.removed.push(key);
}

/**
 * Makes every table equal to the document, writing only the rows that differ. At start
 * the tables usually already match (they persist across reloads), so nothing is written,
 * no live query re-runs, and screens keep reading while this compares. The comparison
 * (21,000 rows at ranch scale) runs in slices of a few milliseconds, so typing in the
 * first seconds after opening is not held up by it.
 */
async function reconcileAll(doc: Y.Doc, db: RanchDb, groups: PaymentGroups): Promise<void> {
  const started = performance.now();
  const slices = timeSlices();
  const snapshots: Snapshot[] = [];
  for (const collection of PROJECTED_COLLECTIONS) {
    const table = tableOf(collection);
    const existing = await readAll(db.table<EntityFields, string>(table), slices);
    const map = collectionMap(doc, collection);
    const snapshot: Snapshot = { table, present: [], removed: [] };
    if (collection === 'payments') {
      // Every payment the document or the index knows: the index follows the document.
      groups.touch(doc, new Set([...map.keys(), ...groups.paymentIds()]));
      await compareRows(snapshot, existing, [...groups.keys()], (key) => groups.row(doc, key) as unknown as EntityFields | null, slices);
    } else {
      await compareRows(snapshot, existing, [...map.keys()], (id) => {
        const entity = map.get(id);
        return entity === undefined ? null : readEntity(entity);
      }, slices);
    }
    snapshots.push(snapshot);
  }
  // The document may change between slices: whatever changed after its row was read is
  // dirty again, and the next batch rewrites it from the doc.
  await writeSnapshots(db, snapshots);
  performance.measure(`projection:reconcile (${rowsOf(snapshots)} rows differed)`, { start: started, end: performance.now() });
}
