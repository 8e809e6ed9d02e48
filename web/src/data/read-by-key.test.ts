import { afterEach, describe, expect, it, vi } from 'vitest';
import { openRanchDb, type RanchDb } from './db.ts';
import type { HorseCareRow } from './horse-care-row.ts';
import { loadDue } from '../features/care/load-due.ts';
import { loadRanchFigures } from '../features/dashboard/load-figures.ts';
import { forEachPageByKey, readAllByKey, WIDE_READ_PAGE } from './read-by-key.ts';

let counter = 0;
const opened: RanchDb[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const db of opened.splice(0)) db.close();
});

function freshDb(): RanchDb {
  const db = openRanchDb(`read-by-key-${Date.now()}-${++counter}`);
  opened.push(db);
  return db;
}

/** The tables a ranch has thousands of rows in, which what is due and the figures read whole. */
const WIDE_TABLES = ['horseCare', 'sales', 'salePayments', 'horses'];

/** Each getAll asked of IndexedDB from now on: its object store and how many rows it asked for (undefined: all). */
function watchGetAll(): [string, number | undefined][] {
  const asked: [string, number | undefined][] = [];
  const getAll = IDBObjectStore.prototype.getAll;
  // Dexie passes the count as an argument, or in an options object where IndexedDB takes one.
  vi.spyOn(IDBObjectStore.prototype, 'getAll').mockImplementation(function (this: IDBObjectStore, ...args: unknown[]) {
    const [query, count] = args;
    const options = typeof query === 'object' && query !== null && 'count' in query ? (query as { count?: number }) : null;
    asked.push([this.name, options ? options.count : (count as number | undefined)]);
    return (getAll as (...a: unknown[]) => IDBRequest).apply(this, args);
  });
  return asked;
}

const horseId = (n: number) => `0190a000-0000-7000-8000-${String(n).padStart(12, '0')}`;
/** A horse's care row (the read model's shape; no entries needed to be read back). */
const careRow = (n: number): HorseCareRow => ({ horseId: horseId(n), entries: [] });

async function seedCare(db: RanchDb, count: number): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, n) => careRow(n));
  await db.horseCare.bulkPut(rows);
  return rows.map((row) => row.horseId);
}

describe('wide reads in pages (read-by-key.ts)', () => {
  it('reads every row once, in key order, across pages and when the last page is full', async () => {
    const db = freshDb();
    const ids = await seedCare(db, 12);
    for (const page of [5, 4, 12, 100]) {
      expect((await readAllByKey(db.horseCare, page)).map((row) => row.horseId)).toEqual(ids);
    }
    expect(await readAllByKey(freshDb().horseCare)).toEqual([]);
  });

  it('asks IndexedDB for no more than a page of rows at a time', async () => {
    const db = freshDb();
    await seedCare(db, WIDE_READ_PAGE * 2 + 10);
    const asked = watchGetAll();
    expect(await readAllByKey(db.horseCare)).toHaveLength(WIDE_READ_PAGE * 2 + 10);
    expect(asked).toEqual([
      ['horseCare', WIDE_READ_PAGE],
      ['horseCare', WIDE_READ_PAGE],
      ['horseCare', WIDE_READ_PAGE],
    ]);
  });

  it("reads what is due and the Dashboard's figures a page at a time", async () => {
    const db = freshDb();
    await seedCare(db, WIDE_READ_PAGE + 1);
    const asked = watchGetAll();
    await loadDue(db, '2026-11-27');
    await loadRanchFigures(db, '2026-11-27');
    const wide = asked.filter(([store]) => WIDE_TABLES.includes(store));
    expect(new Set(wide.map(([store]) => store))).toEqual(new Set(WIDE_TABLES));
    expect(wide.filter(([, count]) => count === undefined || count > WIDE_READ_PAGE)).toEqual([]);
  });

  it('lets a write asked for during the read be stored before the whole table is read', async () => {
    const db = freshDb();
    await seedCare(db, WIDE_READ_PAGE * 8);
    let read = false;
    const reading = readAllByKey(db.horseCare).then((rows) => {
      read = true;
      return rows;
    });
    // As a create staged during a start: one request on another table of the same database.
    await db.stagedUpdates.add({ update: new Uint8Array([1]), createdAt: '2026-11-27T12:00:00.000Z' });
    expect(read).toBe(false);
    expect(await reading).toHaveLength(WIDE_READ_PAGE * 8);
  });

  it('shows a row written between two pages when its key comes after them', async () => {
    const db = freshDb();
    await seedCare(db, 10);
    const seen: string[] = [];
    let written = false;
    await forEachPageByKey(
      db.horseCare,
      async (rows) => {
        seen.push(...rows.map((row) => row.horseId));
        if (!written) {
          written = true;
          await db.horseCare.put(careRow(99));
        }
      },
      4,
    );
    expect(seen).toEqual([...Array.from({ length: 10 }, (_, n) => horseId(n)), horseId(99)]);
  });
});
