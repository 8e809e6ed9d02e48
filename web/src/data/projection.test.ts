import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { deleteEntity, writeEntity } from '../../../shared/index.ts';
import { openRanchDb, type RanchDb } from './db.ts';
import { SPLIT_FROM_ROWS, startProjection, type Projection } from './projection.ts';
import { WIDE_READ_PAGE } from './read-by-key.ts';
import { openLocalDoc } from './ydoc.ts';
import { applyFromOtherDevice } from '../../test/ranch-data.ts';

const BREED = '0190a000-0000-7000-8000-000000000001';
const COLOR = '0190a000-0000-7000-8000-000000000002';
const GENDER = '0190a000-0000-7000-8000-000000000003';
const HORSE = '0190a000-0000-7000-8000-0000000000aa';

const horse = (name: string) => ({
  name,
  breedId: BREED,
  colorId: COLOR,
  genderId: GENDER,
  statusId: null,
  ownerId: null,
  birthdate: null,
  ageYears: 4,
  priceUsd: '12500.00',
  photoUrl: null,
  notes: null,
});

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
  vi.restoreAllMocks();
});

let seq = 0;
function setup(dbName = `projection-${++seq}`) {
  const doc = new Y.Doc();
  const db = openRanchDb(dbName);
  cleanups.push(() => db.delete());
  return { doc, db };
}

/** Ids of the horses written from now on (Dexie hooks see every put and delete). */
function watchWrites(db: RanchDb): string[] {
  const ids: string[] = [];
  db.horses.hook('creating', (id) => void ids.push(id as string));
  db.horses.hook('updating', (_changes, id) => void ids.push(id as string));
  db.horses.hook('deleting', (id) => void ids.push(id as string));
  return ids;
}

function project(doc: Y.Doc, db: RanchDb, loaded: Promise<unknown> = Promise.resolve()): Projection {
  const projection = startProjection(doc, db, loaded);
  cleanups.push(() => projection.stop());
  return projection;
}

describe('[O2] Dexie projection of the ranch document', () => {
  it('writes created, edited and deleted horses through to the table', async () => {
    const { doc, db } = setup();
    await project(doc, db).ready;

    doc.transact(() => writeEntity(doc, 'horses', HORSE, horse('Thunder')));
    await expect.poll(() => db.horses.get(HORSE)).toMatchObject({ id: HORSE, name: 'Thunder', priceUsd: '12500.00' });

    doc.transact(() => writeEntity(doc, 'horses', HORSE, { name: 'Thunderbolt', ageYears: 5 }));
    await expect.poll(() => db.horses.get(HORSE)).toMatchObject({ name: 'Thunderbolt', ageYears: 5, breedId: BREED });

    doc.transact(() => deleteEntity(doc, 'horses', HORSE));
    await expect.poll(() => db.horses.count()).toBe(0);
  });

  it('projects changes that arrive from another device', async () => {
    const { doc, db } = setup();
    const projection = project(doc, db);
    await projection.ready;

    applyFromOtherDevice(doc, (other) => {
      other.transact(() => {
        writeEntity(other, 'breeds', BREED, { name: 'Arabian', isActive: true });
        writeEntity(other, 'horses', HORSE, horse('Storm'));
      });
    });
    await projection.idle();
    expect(await db.breeds.toArray()).toEqual([{ id: BREED, name: 'Arabian', isActive: true }]);
    expect(await db.horses.get(HORSE)).toMatchObject({ name: 'Storm', breedId: BREED });
  });

  it('reconciles on start: stale rows go, missing and outdated rows are written', async () => {
    const { doc, db } = setup();
    const STALE = '0190a000-0000-7000-8000-0000000000bb';
    await db.horses.bulkPut([
      { id: STALE, ...horse('Deleted while the app was closed') },
      { id: HORSE, ...horse('Old name') },
    ]);
    await db.colors.put({ id: COLOR, name: 'Gone', isActive: true });
    doc.transact(() => {
      writeEntity(doc, 'horses', HORSE, horse('New name'));
      writeEntity(doc, 'breeds', BREED, { name: 'Mustang', isActive: true });
    });

    let load!: () => void;
    const projection = project(doc, db, new Promise<void>((resolve) => (load = resolve)));
    // Changes made before the local document has loaded are covered by the reconcile.
    doc.transact(() => writeEntity(doc, 'genders', GENDER, { name: 'Mare', isActive: true }));
    load();
    await projection.ready;

    expect(await db.horses.toArray()).toEqual([{ id: HORSE, ...horse('New name') }]);
    expect(await db.breeds.toArray()).toEqual([{ id: BREED, name: 'Mustang', isActive: true }]);
    expect(await db.genders.toArray()).toEqual([{ id: GENDER, name: 'Mare', isActive: true }]);
    expect(await db.colors.count()).toBe(0);
  });

  describe('payments, one row per sale', () => {
    const SALE_A = '0190a000-0000-7000-8000-0000000000c1';
    const SALE_B = '0190a000-0000-7000-8000-0000000000c2';
    const paymentId = (n: number) => `0190a000-0000-7000-8000-0000000001${String(n).padStart(2, '0')}`;
    const payment = (saleId: string, amount: string) => ({
      saleId,
      amount,
      date: '2024-03-01',
      method: 'Cash',
      memo: null,
      installmentId: null,
      createdAt: '2024-03-01T10:00:00.000Z',
    });
    const idsOf = async (db: RanchDb, saleId: string) => (await db.salePayments.get(saleId))?.payments.map((p) => p.id);

    it('follows created, moved and removed payments', async () => {
      const { doc, db } = setup();
      const projection = project(doc, db);
      await projection.ready;
      doc.transact(() => {
        writeEntity(doc, 'payments', paymentId(1), payment(SALE_A, '100.00'));
        writeEntity(doc, 'payments', paymentId(2), payment(SALE_A, '200.00'));
        writeEntity(doc, 'payments', paymentId(3), payment(SALE_B, '300.00'));
      });
      await projection.idle();
      expect(await db.salePayments.get(SALE_A)).toEqual({
        saleId: SALE_A,
        payments: [
          { id: paymentId(1), ...payment(SALE_A, '100.00') },
          { id: paymentId(2), ...payment(SALE_A, '200.00') },
        ],
      });
      expect(await idsOf(db, SALE_B)).toEqual([paymentId(3)]);

      // Another client moves a payment to the other sale, then removes the last one of A.
      applyFromOtherDevice(doc, (other) => other.transact(() => writeEntity(other, 'payments', paymentId(2), { saleId: SALE_B })));
      await projection.idle();
      expect(await idsOf(db, SALE_A)).toEqual([paymentId(1)]);
      expect(await idsOf(db, SALE_B)).toEqual([paymentId(2), paymentId(3)]);
      doc.transact(() => deleteEntity(doc, 'payments', paymentId(1)));
      await projection.idle();
      expect(await db.salePayments.get(SALE_A)).toBeUndefined();
      expect(await db.salePayments.count()).toBe(1);
    });

    it('reconciles on start: a stale sale row goes, an outdated one is rewritten', async () => {
      const { doc, db } = setup();
      await db.salePayments.bulkPut([
        { saleId: SALE_A, payments: [{ id: paymentId(9), ...payment(SALE_A, '9.00') }] as never },
        { saleId: SALE_B, payments: [] },
      ]);
      doc.transact(() => writeEntity(doc, 'payments', paymentId(4), payment(SALE_B, '400.00')));
      await project(doc, db).ready;
      expect(await db.salePayments.toArray()).toEqual([{ saleId: SALE_B, payments: [{ id: paymentId(4), ...payment(SALE_B, '400.00') }] }]);
    });
  });

  describe('care entries, one row per horse', () => {
    const OTHER_HORSE = '0190a000-0000-7000-8000-0000000000ab';
    const entryId = (n: number) => `0190a000-0000-7000-8000-0000000003${String(n).padStart(2, '0')}`;
    const entry = (horseId: string, doneOn: string) => ({
      horseId,
      kind: 'farrier',
      doneOn,
      nextDueOn: null,
      notes: null,
      recordedBy: '0190a000-0000-7000-8000-0000000003ff',
      recordedByName: 'Ann',
      createdAt: `${doneOn}T10:00:00.000Z`,
    });
    const idsOf = async (db: RanchDb, horseId: string) => (await db.horseCare.get(horseId))?.entries.map((e) => e.id);

    it('follows created, moved and removed entries; an invalid one is in no row', async () => {
      const { doc, db } = setup();
      const projection = project(doc, db);
      await projection.ready;
      doc.transact(() => {
        writeEntity(doc, 'careEntries', entryId(2), entry(HORSE, '2026-02-01'));
        writeEntity(doc, 'careEntries', entryId(1), entry(HORSE, '2026-01-01'));
        writeEntity(doc, 'careEntries', entryId(3), entry(OTHER_HORSE, '2026-03-01'));
        writeEntity(doc, 'careEntries', entryId(4), { ...entry(OTHER_HORSE, '2026-03-01'), kind: 'haircut' });
      });
      await projection.idle();
      expect(await db.horseCare.get(HORSE)).toEqual({
        horseId: HORSE,
        entries: [
          { id: entryId(1), ...entry(HORSE, '2026-01-01') },
          { id: entryId(2), ...entry(HORSE, '2026-02-01') },
        ],
      });
      expect(await idsOf(db, OTHER_HORSE)).toEqual([entryId(3)]);
      expect(projection.invalid().map((item) => item.key)).toEqual([entryId(4)]);

      // Another client corrects an entry to the other horse, then the last one of HORSE is deleted.
      applyFromOtherDevice(doc, (other) => other.transact(() => writeEntity(other, 'careEntries', entryId(2), { horseId: OTHER_HORSE })));
      await projection.idle();
      expect(await idsOf(db, HORSE)).toEqual([entryId(1)]);
      expect(await idsOf(db, OTHER_HORSE)).toEqual([entryId(2), entryId(3)]);
      doc.transact(() => deleteEntity(doc, 'careEntries', entryId(1)));
      await projection.idle();
      expect(await db.horseCare.get(HORSE)).toBeUndefined();
      expect(await db.horseCare.count()).toBe(1);
    });

    it('reconciles on start: a stale horse row goes, an outdated one is rewritten', async () => {
      const { doc, db } = setup();
      await db.horseCare.bulkPut([
        { horseId: HORSE, entries: [{ id: entryId(9), ...entry(HORSE, '2025-01-01') }] as never },
        { horseId: OTHER_HORSE, entries: [] },
      ]);
      doc.transact(() => writeEntity(doc, 'careEntries', entryId(5), entry(OTHER_HORSE, '2026-05-01')));
      await project(doc, db).ready;
      expect(await db.horseCare.toArray()).toEqual([
        { horseId: OTHER_HORSE, entries: [{ id: entryId(5), ...entry(OTHER_HORSE, '2026-05-01') }] },
      ]);
    });
  });

  it('rebuilds the tables from the document stored by y-indexeddb after a restart', async () => {
    const docDbName = `projection-doc-${++seq}`;
    const first = openLocalDoc(docDbName);
    await first.loaded;
    first.doc.transact(() => writeEntity(first.doc, 'horses', HORSE, horse('Remembered')));
    await first.persistence.destroy();
    first.doc.destroy();

    const second = openLocalDoc(docDbName);
    cleanups.push(() => second.persistence.clearData());
    const { db } = setup();
    await project(second.doc, db, second.loaded).ready;
    expect(await db.horses.get(HORSE)).toMatchObject({ name: 'Remembered' });
  });

  it('keeps a burst of changes consistent: the table ends equal to the document', async () => {
    const { doc, db } = setup();
    const projection = project(doc, db);
    await projection.ready;
    const ids = Array.from({ length: 50 }, (_, i) => `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`);
    for (const id of ids) doc.transact(() => writeEntity(doc, 'horses', id, horse(`Horse ${id.slice(-2)}`)));
    for (const id of ids.slice(0, 20)) doc.transact(() => deleteEntity(doc, 'horses', id));
    await projection.idle();
    expect((await db.horses.toCollection().primaryKeys()).sort()).toEqual(ids.slice(20));
  });

  it('writes nothing on start when the tables already match the document', async () => {
    const { doc, db } = setup();
    doc.transact(() => writeEntity(doc, 'horses', HORSE, horse('Silver Star')));
    const first = project(doc, db);
    await first.ready;
    first.stop();
    const written = watchWrites(db);
    await project(doc, db).ready;
    expect(written).toEqual([]);
  });

  it('reconciles tables longer than one read page', async () => {
    const { doc, db } = setup();
    const ids = Array.from({ length: WIDE_READ_PAGE + 3 }, (_, i) => `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`);
    doc.transact(() => ids.forEach((id, i) => writeEntity(doc, 'horses', id, horse(`Horse ${i}`))));
    await db.horses.bulkPut(ids.slice(1).map((id, i) => ({ id, ...horse(`Horse ${i + 1}`) })));
    await db.horses.put({ id: ids[7]!, ...horse('Renamed while closed') });
    await db.horses.put({ id: 'ffffffff-0000-7000-8000-000000000000', ...horse('Gone') });
    const written = watchWrites(db);
    await project(doc, db).ready;
    expect(written.sort()).toEqual([ids[0], ids[7], 'ffffffff-0000-7000-8000-000000000000']);
    expect(await db.horses.count()).toBe(ids.length);
    expect(await db.horses.get(ids[7]!)).toMatchObject({ name: 'Horse 7' });
  });

  it('writes a large batch in two transactions, the horse list first', async () => {
    const { doc, db } = setup();
    const projection = project(doc, db);
    await projection.ready;
    const transaction = vi.spyOn(db, 'transaction');
    // A transaction that fails is written again apart, with this warning: each of the two
    // must commit as it is (its pieces are sent while the piece before is being stored).
    const warn = vi.spyOn(console, 'warn');
    const id = (n: number) => `0190a000-0000-7000-9000-${String(n).padStart(12, '0')}`;
    applyFromOtherDevice(doc, (other) =>
      other.transact(() => {
        writeEntity(other, 'breeds', BREED, { name: 'Arabian', isActive: true });
        writeEntity(other, 'horses', HORSE, horse('Storm'));
        writeEntity(other, 'buyers', id(0), { firstName: 'Ada', lastName: 'Rider', phone: null, email: null });
        writeEntity(other, 'sales', id(1), {
          horseId: HORSE,
          buyerId: id(0),
          salePrice: '20000.00',
          downPayment: '1000.00',
          termsMonths: 12,
          interestApr: 5,
          scheduleStartDate: '2024-01-15',
          createdAt: '2024-06-01T12:00:00.000Z',
        });
        for (let i = 0; i < SPLIT_FROM_ROWS; i++) writeEntity(other, 'horses', id(i + 10), horse(`Horse ${i}`));
        for (let i = 0; i < 3; i++) {
          writeEntity(other, 'payments', id(i + 9000), {
            saleId: id(1),
            amount: '1.00',
            date: '2024-02-10',
            method: 'Cash',
            createdAt: '2024-06-01T12:00:00.000Z',
          });
        }
      }),
    );
    await projection.idle();
    const scopes = transaction.mock.calls.map((call) => (call[1] as unknown as { name: string }[]).map((table) => table.name).sort());
    expect(scopes).toEqual([
      ['breeds', 'horses'],
      ['buyers', 'salePayments', 'sales'],
    ]);
    expect(warn).not.toHaveBeenCalled();
    expect(await db.horses.count()).toBe(SPLIT_FROM_ROWS + 1);
    expect((await db.salePayments.get(id(1)))?.payments.map((payment) => payment.id)).toEqual([id(9000), id(9001), id(9002)]);
    expect(await db.horses.get(HORSE)).toMatchObject({ name: 'Storm' });
  });

  it('writes every table of a large batch: care entries too, with a first sync and with a reconcile', async () => {
    const { doc, db } = setup();
    const projection = project(doc, db);
    await projection.ready;
    const id = (n: number) => `0190a000-0000-7000-a000-${String(n).padStart(12, '0')}`;
    const care = (n: number) => ({
      horseId: HORSE,
      kind: 'farrier',
      doneOn: '2026-01-01',
      nextDueOn: null,
      notes: `Visit ${n}`,
      recordedBy: id(999_999),
      recordedByName: 'Ann',
      createdAt: '2026-01-01T10:00:00.000Z',
    });
    applyFromOtherDevice(doc, (other) =>
      other.transact(() => {
        writeEntity(other, 'breeds', BREED, { name: 'Arabian', isActive: true });
        writeEntity(other, 'horses', HORSE, horse('Storm'));
        for (let i = 0; i < SPLIT_FROM_ROWS; i++) writeEntity(other, 'careEntries', id(i), care(i));
      }),
    );
    await projection.idle();
    expect(projection.invalid()).toEqual([]);
    const entriesOf = async () => (await db.horseCare.get(HORSE))?.entries.length;
    expect(await entriesOf()).toBe(SPLIT_FROM_ROWS);

    // The next start finds the table emptied (as after an interrupted first sync): its reconcile writes them all.
    projection.stop();
    await db.horseCare.clear();
    await project(doc, db).ready;
    expect(await entriesOf()).toBe(SPLIT_FROM_ROWS);
  });

  it('says when the batches queued so far are written, without waiting for the stored document', async () => {
    const { doc, db } = setup();
    const projection = project(doc, db);
    await projection.ready;
    const id = (n: number) => `0190a000-0000-7000-b000-${String(n).padStart(12, '0')}`;
    applyFromOtherDevice(doc, (other) =>
      other.transact(() => {
        for (let i = 0; i < SPLIT_FROM_ROWS; i++) writeEntity(other, 'horses', id(i), horse(`Horse ${i}`));
      }),
    );
    await projection.settled();
    expect(await db.horses.count()).toBe(SPLIT_FROM_ROWS);

    const loading = setup();
    const notLoaded = project(loading.doc, loading.db, new Promise(() => {}));
    await notLoaded.settled();
    expect(await loading.db.horses.count()).toBe(0);
  });
});
