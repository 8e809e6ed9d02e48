import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { deleteEntity, writeEntity } from '../../../shared/index.ts';
import { openRanchDb, type RanchDb } from './db.ts';
import { startProjection, type Projection } from './projection.ts';
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
});

let seq = 0;
function setup(dbName = `projection-${++seq}`) {
  const doc = new Y.Doc();
  const db = openRanchDb(dbName);
  cleanups.push(() => db.delete());
  return { doc, db };
}

function project(doc: Y.Doc, db: RanchDb, loaded: Promise<unknown> = Promise.resolve()): Projection {
  const projection = startProjection(doc, db, loaded);
  cleanups.push(() => projection.stop());
  return projection;
}

describe('Dexie projection of the ranch document', () => {
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
    expect(await db.horses.where('breedId').equals(BREED).first()).toMatchObject({ name: 'Storm' });
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
});
