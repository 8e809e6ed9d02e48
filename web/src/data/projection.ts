import type { Table } from 'dexie';
import type * as Y from 'yjs';
import { collectionMap, observeEntities, readRecord, type EntityFields } from '../../../shared/index.ts';
import { PROJECTED_COLLECTIONS, tableOf, type ProjectedCollection, type RanchDb, type ReadTable } from './db.ts';
import { InvalidEntities, type InvalidEntity } from './invalid-entities.ts';
import { isLedgerRow } from './ledger/ledger-rows.ts';
import { careGroups } from './horse-care.ts';
import { isGrouped, type GroupedCollection, type RecordGroups } from './record-groups.ts';
import { paymentGroups } from './sale-payments.ts';
import { forEachPageByKey } from './read-by-key.ts';
import type { Store } from './store.ts';
import { timeSlices, yieldBehindQueued, type TimeSlices } from './time-slices.ts';
import { writeApart } from './write-apart.ts';

export type Projection = {
  /** Resolves when the tables match the document as loaded from this device. */
  ready: Promise<void>;
  /** Resolves when every change seen so far is written to the tables. */
  idle(): Promise<void>;
  /**
   * Resolves when the batches queued so far are written, without waiting for the stored
   * document to load: reads of whole tables (what is due, the Dashboard's figures) wait for
   * it, so during a first sync they read the tables once, complete, rather than between
   * its transactions, competing with them.
   */
  settled(): Promise<void>;
  /** Entities of the document left out of the tables (not valid records, or refused by IndexedDB). */
  invalid(): InvalidEntity[];
  /** How many there are, for the Settings screen. */
  invalidCount: Store<{ invalid: number }>;
  stop(): void;
};

type Dirty = Map<ProjectedCollection, Set<string>> | 'all';

/** Delays before reconciling again after a failed batch: 1 s, doubling, at most 5 minutes. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 5 * 60_000;

export type ProjectionOptions = { retryFirstMs?: number };

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
 *
 * The document is not trusted (any Yjs client can write its public layout): only valid
 * records are written, keyed by their map key; the others are left out and counted.
 */
export function startProjection(doc: Y.Doc, db: RanchDb, loaded: Promise<unknown>, options: ProjectionOptions = {}): Projection {
  const retryFirst = options.retryFirstMs ?? RETRY_FIRST_MS;
  let dirty: Dirty | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let started = false;
  let retryDelay = retryFirst;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const invalid = new InvalidEntities();
  const context: Context = { doc, db, groups: newGroups(invalid), invalid, stopped: () => stopped };

  const markDirty = (collection: ProjectedCollection, ids: Iterable<string>) => {
    if (dirty === 'all') return;
    dirty ??= new Map();
    let set = dirty.get(collection);
    if (!set) dirty.set(collection, (set = new Set()));
    for (const id of ids) set.add(id);
  };

  /**
   * After a failed write the rows may be stale: reconcile, but later, backing off. At once
   * it would most likely fail the same way again; meanwhile later changes are still written.
   */
  const reconcileLater = () => {
    if (stopped || retryTimer !== undefined) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      dirty = 'all';
      void flush();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
  };

  const flush = (): Promise<void> => {
    running = running.then(async () => {
      if (stopped || dirty === null) return;
      const batch = dirty;
      dirty = null;
      try {
        const stored = await (batch === 'all' ? reconcileAll(context) : writeChanged(context, batch));
        if (!stored) reconcileLater();
        else if (batch === 'all') retryDelay = retryFirst;
      } catch (error) {
        if (stopped) return; // closing the database while a batch runs is no failure
        console.error('Projection to IndexedDB failed; reconciling again later', error);
        reconcileLater();
      } finally {
        invalid.publish();
      }
    });
    // The chain must never stay rejected: every later batch would be skipped.
    running = running.catch((error: unknown) => console.error('Projection failed', error));
    return running;
  };

  const stopObserving = observeEntities(doc, (changes) => {
    for (const [collection, ids] of changes) {
      if (isProjected(collection)) markDirty(collection, ids);
    }
    // Before the first reconcile the only changes are the outbox's first pass (outbox/drain.ts):
    // this device's own writes, shown at once. The reconcile after the load covers everything again.
    if (started || earlyRowsOnly(dirty)) void flush();
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
    settled: () => running,
    invalid: () => invalid.list(),
    invalidCount: invalid.count,
    stop: () => {
      stopped = true;
      clearTimeout(retryTimer);
      stopObserving();
    },
  };
}

/**
 * Whether a batch can be written before the document has loaded: one row per entity
 * (payments are grouped by sale and care entries by horse, so a group's row needs all of
 * its records) and no deletion (a key missing from a document not yet loaded says nothing).
 */
function earlyRowsOnly(dirty: Dirty | null): boolean {
  return dirty instanceof Map && ![...dirty.keys()].some(isGrouped);
}

/** Rows per bulkPut: one transaction still holds a whole batch, in bounded pieces. */
const CHUNK = 2000;

type Groups = Record<GroupedCollection, RecordGroups<unknown>>;

/** What every batch works with; `stopped`: the projection was stopped (the device is being cleared), nothing more is written. */
type Context = { doc: Y.Doc; db: RanchDb; groups: Groups; invalid: InvalidEntities; stopped: () => boolean };

const newGroups = (invalid: InvalidEntities): Groups => ({ payments: paymentGroups(invalid), careEntries: careGroups(invalid) });

/** Rows to put into one table and primary keys to delete from it. */
type Snapshot = { table: ReadTable; present: EntityFields[]; removed: string[] };

/**
 * The row of `key` when the document holds a valid record there (the schema's output, `id`
 * = the key); null when it holds nothing or something invalid, which is noted. Never throws.
 */
function validRow(
  map: { get(key: string): unknown },
  invalid: InvalidEntities,
  collection: ProjectedCollection,
  key: string,
): EntityFields | null {
  const value = map.get(key);
  if (value === undefined) {
    invalid.note(collection, key, null);
    return null;
  }
  const reading = readRecord(collection, key, value);
  invalid.note(collection, key, reading.valid ? null : reading.problem);
  return reading.valid ? (reading.record as EntityFields) : null;
}

/** Rows of the valid ids; ids deleted from the document or invalid now lose their row. */
function entityRows({ doc, invalid }: Context, collection: ProjectedCollection, ids: Iterable<string>): Snapshot {
  const map = collectionMap(doc, collection);
  const present: EntityFields[] = [];
  const removed: string[] = [];
  for (const id of ids) {
    const row = validRow(map, invalid, collection, id);
    if (row === null) removed.push(id);
    else present.push(row);
  }
  return { table: tableOf(collection), present, removed };
}

/** The rows of the given groups (sales, horses) as their index has them now (record-groups.ts). */
function groupRows(groups: RecordGroups<unknown>, groupKeys: Iterable<string>): Snapshot {
  const snapshot: Snapshot = { table: tableOf(groups.collection), present: [], removed: [] };
  for (const groupKey of groupKeys) {
    const row = groups.row(groupKey);
    if (row) snapshot.present.push(row as EntityFields);
    else snapshot.removed.push(groupKey);
  }
  return snapshot;
}

const changedRows = (context: Context, collection: ProjectedCollection, ids: Iterable<string>): Snapshot =>
  isGrouped(collection)
    ? groupRows(context.groups[collection], context.groups[collection].touch(context.doc, ids))
    : entityRows(context, collection, ids);

/**
 * The rows of a large batch (a first sync), read a piece at a time between time slices:
 * validating 100,000 records takes seconds, too long to keep IndexedDB's answers (the tables
 * read before, being written) and the pages' calls waiting.
 * What the document changes between pieces is dirty again and rewritten by the next batch.
 */
async function changedRowsSliced(context: Context, batch: Map<ProjectedCollection, Set<string>>): Promise<Snapshot[]> {
  const slices = timeSlices(8, yieldBehindQueued);
  const snapshots: Snapshot[] = [];
  for (const [collection, idSet] of batch) {
    const ids = [...idSet];
    const touchedGroups = new Set<string>();
    const snapshot: Snapshot = { table: tableOf(collection), present: [], removed: [] };
    for (let i = 0; i < ids.length; i += READ_PIECE) {
      const piece = ids.slice(i, i + READ_PIECE);
      if (isGrouped(collection)) {
        for (const groupKey of context.groups[collection].touch(context.doc, piece)) touchedGroups.add(groupKey);
      } else {
        const { present, removed } = entityRows(context, collection, piece);
        snapshot.present.push(...present);
        snapshot.removed.push(...removed);
      }
      if (slices.due()) await slices.pause();
    }
    // A group's row (a sale's payments, a horse's care) is made once, from all its records
    // read, never put and deleted in one batch.
    snapshots.push(isGrouped(collection) ? groupRows(context.groups[collection], touchedGroups) : snapshot);
  }
  return snapshots;
}

const rowsOf = (snapshots: Snapshot[]) => snapshots.reduce((sum, s) => sum + s.present.length + s.removed.length, 0);

/**
 * A large batch (a first sync: seconds of IndexedDB writes) is written as two
 * transactions, what the horse list shows first: lookups, suppliers and horses can be
 * listed while buyers, sales and payments are still being written. Every table is
 * written after the tables it refers to, and sales commit together with their payments.
 * Smaller batches stay one transaction.
 */
export const SPLIT_FROM_ROWS = 5000;
const WRITE_ORDER: ReadTable[][] = [
  ['breeds', 'colors', 'genders', 'statuses', 'owners', 'horses'],
  ['buyers', 'sales', 'salePayments', 'horseCare'],
];

/**
 * The snapshots in WRITE_ORDER's transactions. A table WRITE_ORDER does not name goes with
 * the last: no table may be left out (care entries once were, and a ranch's first sync then
 * never showed its care).
 */
function inWriteOrder(work: Snapshot[]): Snapshot[][] {
  const named = new Set(WRITE_ORDER.flat());
  const groups = WRITE_ORDER.map((tables) => tables.flatMap((t) => work.filter((s) => s.table === t)));
  groups[groups.length - 1]!.push(...work.filter((s) => !named.has(s.table)));
  return groups.filter((g) => g.length > 0);
}

/**
 * Writes the snapshots, chunked bulkPut/bulkDelete, in one rw transaction (or two, see
 * above). When a transaction fails, its rows are written apart (write-apart.ts) so the
 * rows IndexedDB accepts are stored; the refused ones are noted. Returns whether every row
 * was stored (false once the projection is stopped: it writes no more); throws when nothing
 * could be (quota, a closed database).
 */
async function writeSnapshots({ db, invalid, stopped }: Context, snapshots: Snapshot[]): Promise<boolean> {
  const work = snapshots.filter((s) => s.present.length > 0 || s.removed.length > 0);
  if (work.length === 0) return true;
  const transactions = rowsOf(work) < SPLIT_FROM_ROWS ? [work] : inWriteOrder(work);
  let stored = true;
  for (const transaction of transactions) {
    // A batch under way when the projection stops writes no more, nor its rows apart.
    if (stopped()) return false;
    try {
      await writeInOneTransaction(db, transaction);
    } catch (error) {
      if (stopped()) return false;
      console.warn('Projection: a write failed; writing its rows apart', error);
      for (const { table, present, removed } of transaction) {
        const refused = await writeApart(db.table<EntityFields, string>(table), present, removed, CHUNK);
        for (const { key, problem } of refused) invalid.refused(table, key, problem);
        if (refused.length > 0) stored = false;
      }
    }
  }
  return stored;
}

/**
 * Chunks a transaction has sent to IndexedDB and not yet heard back about. Two: while
 * IndexedDB writes one chunk, this thread turns the next into requests (copying each row,
 * most of a put's cost here), instead of each waiting for the other.
 */
const IN_FLIGHT = 2;

/** The chunked requests of the snapshots, in order: each table's puts, then its deletions. */
function* chunkRequests(db: RanchDb, work: Snapshot[]): Generator<() => Promise<unknown>> {
  for (const { table: name, present, removed } of work) {
    const table = db.table<EntityFields, string>(name);
    for (let i = 0; i < present.length; i += CHUNK) yield () => table.bulkPut(present.slice(i, i + CHUNK));
    for (let i = 0; i < removed.length; i += CHUNK) yield () => table.bulkDelete(removed.slice(i, i + CHUNK));
  }
}

async function writeInOneTransaction(db: RanchDb, work: Snapshot[]): Promise<void> {
  const started = performance.now();
  await db.transaction(
    'rw',
    work.map((s) => db.table(s.table)),
    async () => {
      // Each next chunk is sent when one before it succeeds: in that request's callback,
      // while the transaction is still active (IndexedDB refuses requests sent later).
      const inFlight: Promise<unknown>[] = [];
      for (const send of chunkRequests(db, work)) {
        if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
        const sent = send();
        // A failed chunk aborts the transaction, and the chunks after it fail with it: the
        // first failure is the one thrown, the others are not reported on their own.
        sent.catch(() => {});
        inFlight.push(sent);
      }
      await Promise.all(inFlight);
    },
  );
  measure(`commit ${work.map((s) => s.table).join(', ')}`, started, rowsOf(work));
}

/** performance.measure for batches worth timing (the bench reads them; cheap otherwise). */
function measure(name: string, start: number, rows: number): void {
  if (rows >= 1000) performance.measure(`projection:${name} (${rows} rows)`, { start, end: performance.now() });
}

async function writeChanged(context: Context, batch: Map<ProjectedCollection, Set<string>>): Promise<boolean> {
  const started = performance.now();
  const ids = [...batch.values()].reduce((sum, set) => sum + set.size, 0);
  if (ids >= SPLIT_FROM_ROWS) return writeLargeBatch(context, batch);
  // A usual batch reads every row before the first await, so it is one consistent state of
  // the doc.
  const snapshots = [...batch].map(([collection, set]) => changedRows(context, collection, set));
  const rows = rowsOf(snapshots);
  measure('read doc', started, rows);
  const writing = performance.now();
  const stored = await writeSnapshots(context, snapshots);
  measure('write', writing, rows);
  return stored;
}

/**
 * A large batch (a first sync) by WRITE_ORDER's transactions, pipelined: the rows of the
 * first transaction's tables are read (in time slices) and their transaction started, and
 * the next tables are read while IndexedDB writes it; each transaction still starts after
 * the one before has committed, so the tables are written in order. Reading and writing
 * were each seconds of a first sync, one after the other.
 */
async function writeLargeBatch(context: Context, batch: Map<ProjectedCollection, Set<string>>): Promise<boolean> {
  const started = performance.now();
  const named = new Set(WRITE_ORDER.flat());
  const last = WRITE_ORDER.length - 1;
  const groups = WRITE_ORDER.map((tables, i) =>
    [...batch].filter(([collection]) => (named.has(tableOf(collection)) ? tables.includes(tableOf(collection)) : i === last)),
  );
  let writing: Promise<boolean> = Promise.resolve(true);
  let rows = 0;
  for (const group of groups) {
    if (group.length === 0) continue;
    const snapshots = await changedRowsSliced(context, new Map(group));
    rows += rowsOf(snapshots);
    writing = writing.then(async (stored) => (await writeSnapshots(context, snapshots)) && stored);
    // Awaited below; marked handled now, so a failure while the next tables are read is not reported twice.
    writing.catch(() => {});
  }
  const stored = await writing;
  measure('read and write', started, rows);
  return stored;
}

/** Equal values; objects whatever their key order (rows written before validation kept the document's order). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  const isObject = (value: unknown): value is EntityFields => typeof value === 'object' && value !== null && !Array.isArray(value);
  return isObject(a) && isObject(b) && sameRow(a, b);
}

function sameRow(a: EntityFields, b: EntityFields | undefined): boolean {
  if (!b) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => sameValue(a[key], b[key]));
}

/**
 * Every row of a table by primary key, a page of the wide reads' size at a time
 * (read-by-key.ts), so a write asked for meanwhile (an intent appended to the outbox) waits
 * for one page of IndexedDB's work, not a table's.
 */
async function readAll(table: Table<EntityFields, string>, slices: TimeSlices): Promise<Map<string, EntityFields>> {
  const keyPath = table.schema.primKey.keyPath as string;
  const byKey = new Map<string, EntityFields>();
  await forEachPageByKey(table, async (page) => {
    for (const row of page) byKey.set(row[keyPath] as string, row);
    if (slices.due()) await slices.pause();
  });
  return byKey;
}

/** Puts what differs from `existing` into `snapshot`, and what `existing` has beyond `keys`; never a row from the ledger. */
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
      const stored = existing.get(key);
      if (!isLedgerRow(stored) && !sameRow(row, stored)) snapshot.present.push(row);
    }
    if (slices.due()) await slices.pause();
  }
  // A row from the ledger is the ledger's, whatever the document holds (kept-ledger-rows.ts guards every write).
  for (const [key, row] of existing) if (!present.has(key) && !isLedgerRow(row)) snapshot.removed.push(key);
}

/**
 * Makes every table equal to the document, writing only the rows that differ. At start
 * the tables usually already match (they persist across reloads), so nothing is written,
 * no live query re-runs, and screens keep reading while this compares. The comparison
 * (21,000 rows at ranch scale) runs in slices of a few milliseconds, so typing in the
 * first seconds after opening is not held up by it.
 */
async function reconcileAll(context: Context): Promise<boolean> {
  const { doc, db, groups, invalid } = context;
  const started = performance.now();
  const slices = timeSlices(8, yieldBehindQueued);
  const snapshots: Snapshot[] = [];
  for (const collection of PROJECTED_COLLECTIONS) {
    const table = tableOf(collection);
    const existing = await readAll(db.table<EntityFields, string>(table), slices);
    const map = collectionMap(doc, collection);
    const snapshot: Snapshot = { table, present: [], removed: [] };
    // Validating is most of the reconcile's time (docs/web.md, Data), so it happens inside
    // the time-sliced loops: in rowOf, and for grouped records a piece at a time.
    const keys = [...map.keys()];
    if (isGrouped(collection)) {
      // Every record the document or the index knows: the index follows the document.
      const index = groups[collection];
      keys.push(...[...index.ids()].filter((id) => !map.has(id)));
      for (let i = 0; i < keys.length; i += READ_PIECE) {
        index.touch(doc, keys.slice(i, i + READ_PIECE));
        if (slices.due()) await slices.pause();
      }
      await compareRows(snapshot, existing, [...index.keys()], (key) => index.row(key) as EntityFields | null, slices);
    } else {
      await compareRows(snapshot, existing, keys, (key) => validRow(map, invalid, collection, key), slices);
    }
    invalid.retain(collection, new Set(keys));
    snapshots.push(snapshot);
  }
  // The document may change between slices: whatever changed after its row was read is
  // dirty again, and the next batch rewrites it from the doc.
  invalid.clearRefused();
  const stored = await writeSnapshots(context, snapshots);
  performance.measure(`projection:reconcile (${rowsOf(snapshots)} rows differed)`, { start: started, end: performance.now() });
  return stored;
}

/** Entities validated between two looks at the clock (reading the clock per entity costs more than it saves). */
const READ_PIECE = 100;
