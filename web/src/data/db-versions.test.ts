import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { openOldReadDb } from '../../test/old-read-db.ts';
import { openRanchDb, READ_DB_VERSION } from './db.ts';
import { makeIntent } from './outbox/intent.ts';

const opened: Dexie[] = [];
let seq = 0;
const fresh = () => `db-versions-${Date.now()}-${++seq}`;
function track<T extends Dexie>(db: T): T {
  opened.push(db);
  return db;
}

afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

/** Every table with its primary key and indexes, as Dexie reads them from the database. */
function schemaOf(db: Dexie): Record<string, readonly string[]> {
  return Object.fromEntries(
    db.tables
      .map((table) => [table.name, [table.schema.primKey.src, ...table.schema.indexes.map((index) => index.src).sort()]] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

/** The tables whose indexes version 11 dropped, as they are since. */
const UNREAD_INDEXES_DROPPED = {
  horses: ['id', 'name', 'ownerId'],
  owners: ['id', 'lastName'],
  buyers: ['id', 'lastName'],
  sales: ['id', 'horseId'],
};

const horse = { id: 'h1', name: 'Comet', breedId: 'b1', colorId: null, genderId: null, statusId: null, ownerId: null };
const conflict = { id: 'c1', collection: 'horses', entityId: 'h1', field: 'priceUsd', answeredAt: null };

describe('the read database declared once, at its current version', () => {
  it('declares what the nine old versions together declared, version 10 the stagedUpdates table, 11 without the unread indexes, 12 the stagedCalls table, 13 care by horse, 14 the reference numbers, 15 the corrections, 16 the outbox in place of stagedCalls and 17 the ledger payments', async () => {
    const old = track(openOldReadDb(fresh(), 9));
    await old.open();
    const current = track(openRanchDb(fresh()));
    await current.open();
    expect(READ_DB_VERSION).toBe(17);
    const { careEntries: _byEntry, ...oldTables } = schemaOf(old);
    expect(schemaOf(current)).toEqual({
      ...oldTables,
      ...UNREAD_INDEXES_DROPPED,
      stagedUpdates: ['++seq'],
      outbox: ['++seq'],
      horseCare: ['horseId'],
      referenceNumbers: ['++n', '&id'],
      corrections: ['id', 'saleId'],
      payments: ['id', 'saleId'],
    });
  });

  it('opens a version 13 database: its horses stored again with numbers for their lookups, read back as they were; other rows kept', async () => {
    const name = fresh();
    const old = openOldReadDb(name, 13);
    const horses = Array.from({ length: 300 }, (_, i) => ({
      ...horse,
      id: `h${String(i).padStart(3, '0')}`,
      colorId: `c${i % 3}`,
      ownerId: 'o1',
    }));
    await old.table('horses').bulkPut(horses);
    await old.table('horseCare').put({ horseId: 'h001', entries: [] });
    old.close();
    const db = track(openRanchDb(name));
    await db.open();
    expect(db.verno).toBe(READ_DB_VERSION);
    expect(await db.horses.orderBy(':id').toArray()).toEqual(horses);
    expect(await db.horses.where('ownerId').equals('o1').count()).toBe(300);
    expect(await db.horseCare.count()).toBe(1);
    db.close();

    const raw = track(new Dexie(name));
    await raw.open();
    const stored = await raw.table('horses').toArray();
    expect(new Set(stored.map((row) => typeof row.breedId))).toEqual(new Set(['number']));
    expect(new Set(stored.map((row) => row.colorId)).size).toBe(3);
    expect(stored.every((row) => typeof row.colorId === 'number' && row.ownerId === 'o1' && row.genderId === null)).toBe(true);
    expect((await raw.table('referenceNumbers').toArray()).map((row) => row.id).sort()).toEqual(['b1', 'c0', 'c1', 'c2']);
  });

  it('opens a version 14 database, its horses already stored with numbers: each read back with the ids it had', async () => {
    const name = fresh();
    const old = openOldReadDb(name, 14);
    await old.table('referenceNumbers').bulkAdd([{ id: 'b1' }, { id: 'c0' }]);
    const numbers = new Map((await old.table('referenceNumbers').toArray()).map((row) => [row.id, row.n]));
    await old.table('horses').put({ ...horse, breedId: numbers.get('b1'), colorId: numbers.get('c0') });
    old.close();
    const db = track(openRanchDb(name));
    await db.open();
    expect(await db.horses.toArray()).toEqual([{ ...horse, colorId: 'c0' }]);
  });

  it('opens a version 12 database: careEntries (a row per entry) goes, horseCare comes, the other rows and staged edits stay', async () => {
    const name = fresh();
    const old = openOldReadDb(name, 12);
    await old.table('horses').put(horse);
    await old.table('careEntries').put({ id: 'e1', horseId: 'h1', kind: 'farrier', doneOn: '2026-01-01' });
    await old.table('stagedCalls').add({ repository: 'horses', method: 'update', args: ['h1', {}], createdAt: '2026-11-26T00:00:00.000Z' });
    old.close();
    const db = track(openRanchDb(name));
    await db.open();
    expect(db.backendDB().objectStoreNames.contains('careEntries')).toBe(false);
    expect(await db.horseCare.count()).toBe(0);
    expect(await db.horses.get('h1')).toEqual(horse);
    // The staged edit is an intent in the outbox now, for the drain to check and apply.
    expect(await db.outbox.toArray()).toMatchObject([
      { repository: 'horses', method: 'update', args: ['h1', {}], creates: [], answered: true },
    ]);
    expect(db.backendDB().objectStoreNames.contains('stagedCalls')).toBe(false);
    expect(db.verno).toBe(READ_DB_VERSION);
  });

  it('opens a version 11 database: its rows and staged creates kept, the outbox added', async () => {
    const name = fresh();
    const old = openOldReadDb(name, 11);
    await old.table('horses').put(horse);
    await old.table('stagedUpdates').add({ update: new Uint8Array([0, 0]), createdAt: '2026-11-25T00:00:00.000Z' });
    expect(old.tables.map((table) => table.name)).not.toContain('stagedCalls');
    old.close();
    const db = track(openRanchDb(name));
    expect(await db.horses.get('h1')).toEqual(horse);
    expect(await db.stagedUpdates.count()).toBe(1);
    const seq = await db.outbox.add(makeIntent('horses', 'update', ['h1', { name: 'Comet' }]));
    expect(await db.outbox.get(seq)).toMatchObject({ seq, repository: 'horses', args: ['h1', { name: 'Comet' }] });
    expect(db.verno).toBe(READ_DB_VERSION);
  });

  it('opens a database with the indexes version 11 dropped: its rows kept, read by the indexes that stay, the others gone', async () => {
    const name = fresh();
    const old = openOldReadDb(name, 9);
    await old.table('horses').put({ ...horse, ownerId: 'o1' });
    await old.table('sales').put({ id: 's1', horseId: 'h1', buyerId: 'b1', createdAt: '2026-01-01' });
    old.close();
    const db = track(openRanchDb(name));
    expect(await db.horses.where('ownerId').equals('o1').count()).toBe(1);
    expect(await db.horses.where('name').equals('Comet').count()).toBe(1);
    expect(await db.sales.where('horseId').equals('h1').count()).toBe(1);
    expect(schemaOf(db)).toMatchObject(UNREAD_INDEXES_DROPPED);
    await expect(db.horses.where('breedId').equals('b1').count()).rejects.toThrow();
  });

  it('opens a version 8 database made by the old declarations: its rows kept, version 9 table and index added', async () => {
    const name = fresh();
    const old = openOldReadDb(name, 8);
    await old.table('horses').put(horse);
    await old.table('meta').put({ key: 'device.owner', value: 'user-1' });
    await old.table('historyCache').put({ key: 'recent', changes: [], fetchedAt: '2026-11-01T00:00:00.000Z' });
    expect(old.tables.map((table) => table.name)).not.toContain('conflicts');
    old.close();

    const db = track(openRanchDb(name));
    expect(await db.horses.get('h1')).toEqual(horse);
    expect(await db.horses.where('name').equals('Comet').count()).toBe(1);
    expect(await db.meta.get('device.owner')).toEqual({ key: 'device.owner', value: 'user-1' });
    expect(await db.historyCache.count()).toBe(1);
    await db.conflicts.put(conflict as never);
    expect(await db.conflicts.where('[collection+entityId]').equals(['horses', 'h1']).toArray()).toEqual([conflict]);
    expect(db.verno).toBe(READ_DB_VERSION);
  });

  it('opens a version 16 database: the ledger payments table comes, the ledger pulled from its start; every row kept', async () => {
    const name = fresh();
    const old = openOldReadDb(name, 16);
    await old.table('sales').put({ id: 's1', horseId: 'h1', buyerId: 'b1', createdAt: '2026-01-01' });
    await old.table('salePayments').put({ saleId: 's1', payments: [] });
    await old.table('meta').put({ key: 'ledger.cursor', value: '40' });
    old.close();
    const db = track(openRanchDb(name));
    await db.open();
    expect(db.verno).toBe(READ_DB_VERSION);
    expect(await db.sales.count()).toBe(1);
    expect(await db.salePayments.count()).toBe(1);
    expect(await db.payments.where('saleId').equals('s1').count()).toBe(0);
    expect(await db.meta.get('ledger.cursor')).toBeUndefined();
  });

  it('opens a version 4 database: the dropped horseSearch goes, its old payments not taken for ledger ones, the later tables come', async () => {
    const name = fresh();
    const old = openOldReadDb(name, 4);
    await old.table('horses').put(horse);
    await old.table('horseSearch').put({ id: 'h1', keys: ['comet'] });
    await old.table('payments').put({ id: 'p1', saleId: 's1', date: '2026-01-01', createdAt: '2026-01-01' });
    old.close();

    const db = track(openRanchDb(name));
    await db.open();
    const tables = db.backendDB().objectStoreNames;
    expect(tables.contains('horseSearch')).toBe(false);
    // The ledger's payments table has the old one's name: emptied, for the ledger to fill.
    expect(await db.payments.count()).toBe(0);
    for (const table of ['salePayments', 'horseCare', 'historyCache', 'conflicts']) expect(tables.contains(table)).toBe(true);
    expect(await db.horses.toArray()).toEqual([horse]);
    expect(await db.horseCare.count()).toBe(0);
  });

  it('opens a version 9 database (the last of the old declarations): its rows kept, stagedUpdates added; and a fresh one', async () => {
    const name = fresh();
    const old = openOldReadDb(name, 9);
    await old.table('horses').put(horse);
    await old.table('meta').put({ key: 'sync.stagedClients', value: [7] });
    old.close();
    const db = track(openRanchDb(name));
    expect(await db.horses.get('h1')).toEqual(horse);
    expect(await db.meta.get('sync.stagedClients')).toEqual({ key: 'sync.stagedClients', value: [7] });
    const seq = await db.stagedUpdates.add({ update: new Uint8Array([0, 0]), createdAt: '2026-11-23T00:00:00.000Z' });
    const row = await db.stagedUpdates.get(seq);
    expect(row).toMatchObject({ seq, createdAt: '2026-11-23T00:00:00.000Z' });
    expect(Array.from(row?.update ?? [])).toEqual([0, 0]);
    expect(db.verno).toBe(READ_DB_VERSION);

    const empty = track(openRanchDb(fresh()));
    await empty.horses.put(horse as never);
    await empty.conflicts.put(conflict as never);
    expect(await empty.horses.where('ownerId').equals('o1').count()).toBe(0);
    expect(await empty.horses.where('name').equals('Comet').count()).toBe(1);
    expect(await empty.conflicts.where('[collection+entityId]').equals(['horses', 'h1']).count()).toBe(1);
  });
});
