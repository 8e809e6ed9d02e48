// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { IndexeddbPersistence } from 'y-indexeddb';
import { collectionMap, writeEntity } from '../../../shared/index.ts';
import { openRanchDb, type RanchDb, type StagedCallRow } from './db.ts';
import { createDataHost } from './host/data-host.ts';
import { openHeld, type Setup } from '../../test/held-host.ts';

let counter = 0;
const BREED = '0190a000-0000-7000-8000-0000000000b1';
const COMET = '0190a000-0000-7000-8000-0000000000c1';
const DELETED = '0190a000-0000-7000-8000-0000000000c2';
const HORSE = { name: 'Comet', breedId: BREED, colorId: BREED, genderId: BREED, notes: 'grey mane' };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Names = { docDbName: string; readDbName: string };

/**
 * A device that has a ranch stored, written by other devices (nothing of it waits for the
 * server): `write` fills the document, and a host's load projects it into the read model,
 * which then shows the rows. `extraRows` are rows the read model shows that the document no
 * longer has (deleted since, not yet projected).
 */
async function device(write: (doc: Y.Doc) => void = () => {}, extraRows: Record<string, unknown>[] = []): Promise<Names> {
  const suffix = `${Date.now()}-${++counter}`;
  const names = { docDbName: `edits-doc-${suffix}`, readDbName: `edits-read-${suffix}` };
  const stored = new Y.Doc();
  const persistence = new IndexeddbPersistence(names.docDbName, stored);
  await persistence.whenSynced;
  stored.transact(() => {
    writeEntity(stored, 'horses', COMET, HORSE);
    write(stored);
  });
  await persistence.destroy();
  const host = createDataHost({ ...names, loadAtOnce: true });
  await host.data.loaded;
  await host.data.projection.idle();
  await host.destroy();
  if (extraRows.length > 0) {
    const db = openRanchDb(names.readDbName);
    await db.horses.bulkPut(extraRows as never);
    db.close();
  }
  return names;
}

function held(names: Names, loadAtOnce = false): Setup {
  const setup = openHeld(names, loadAtOnce);
  cleanups.push(setup.close);
  return setup;
}

/** A host loading the device's databases once more (the next start), closed after the test. */
async function nextStart(names: Names) {
  const host = createDataHost({ ...names, loadAtOnce: true });
  cleanups.push(() => host.destroy());
  await host.data.loaded;
  return host;
}

/** The read database as another connection sees it (a call staged directly, as any page of the origin may). */
function readDb(names: Names): RanchDb {
  const db = openRanchDb(names.readDbName);
  cleanups.push(() => db.close());
  return db;
}

const horseIn = (doc: Y.Doc, id: string) => collectionMap(doc, 'horses').get(id)?.toJSON();

describe('edits staged by the page while the data worker is loading', () => {
  it('[O2] a horse edited during the load is answered and shown before the host answers anything; the host makes the edit, counted as unsent', async () => {
    const { host, page, link } = held(await device());
    await page.writes.horses.update(COMET, { ...HORSE, name: 'Comet II' });
    expect(await page.db.horses.get(COMET)).toMatchObject({ id: COMET, name: 'Comet II', notes: 'grey mane' });
    expect(host.data.docLoaded).toBe(false);
    expect(await page.db.stagedCalls.count()).toBe(1);

    link.release();
    await page.loaded;
    expect(horseIn(host.data.doc, COMET)).toMatchObject({ name: 'Comet II', notes: 'grey mane' });
    expect(await page.db.stagedCalls.count()).toBe(0);
    expect(await page.countUnsent()).toEqual({ records: 1, photos: 0 });
    await page.projection.idle();
    expect(await page.db.horses.get(COMET)).toMatchObject({ name: 'Comet II' });
  });

  it('suppliers and buyers are edited the same way; a horse created during the same start can be edited too', async () => {
    const OWNER = '0190a000-0000-7000-8000-0000000000d1';
    const BUYER = '0190a000-0000-7000-8000-0000000000e1';
    const contact = { firstName: 'Ann', lastName: 'Lee' };
    const names = await device((doc) => {
      writeEntity(doc, 'owners', OWNER, { ...contact, createdAt: '2026-01-01T00:00:00.000Z' });
      writeEntity(doc, 'buyers', BUYER, contact);
    });
    const { host, page, link } = held(names);
    await page.writes.owners.update(OWNER, { firstName: 'Ann', lastName: 'Long' });
    await page.writes.buyers.update(BUYER, { firstName: 'Bea', lastName: 'Lee' });
    const foal = await page.writes.horses.create({ ...HORSE, name: 'Foal' });
    await page.writes.horses.update(foal, { ...HORSE, name: 'Foal Two' });
    expect(await page.db.owners.get(OWNER)).toMatchObject({ lastName: 'Long' });
    expect(await page.db.buyers.get(BUYER)).toMatchObject({ firstName: 'Bea' });
    expect(await page.db.horses.get(foal)).toMatchObject({ name: 'Foal Two' });

    link.release();
    await page.loaded;
    expect(collectionMap(host.data.doc, 'owners').get(OWNER)?.toJSON()).toMatchObject({ lastName: 'Long' });
    expect(collectionMap(host.data.doc, 'buyers').get(BUYER)?.toJSON()).toMatchObject({ firstName: 'Bea' });
    expect(horseIn(host.data.doc, foal)).toMatchObject({ name: 'Foal Two' });
    expect(await page.countUnsent()).toEqual({ records: 3, photos: 0 });
  });

  it('an edit staged as the host finished loading is made before a later edit of the same horse that went straight to the host', async () => {
    const { host, page, link } = held(await device(), true);
    await host.data.loaded;
    // The page has not heard yet: this one is staged, and the host is told after its load's drain.
    await page.writes.horses.update(COMET, { ...HORSE, name: 'First' });
    link.release();
    await page.loaded;
    await page.writes.horses.update(COMET, { ...HORSE, name: 'Second' });
    expect(horseIn(host.data.doc, COMET)).toMatchObject({ name: 'Second' });
    await expect.poll(() => page.db.stagedCalls.count()).toBe(0);
    expect(horseIn(host.data.doc, COMET)).toMatchObject({ name: 'Second' });
  });

  it('an edit the schema refuses rejects, and nothing is staged or shown', async () => {
    const { page } = held(await device());
    await expect(page.writes.horses.update(COMET, { ...HORSE, name: ' ' })).rejects.toMatchObject({ name: 'ValidationError' });
    expect(await page.db.stagedCalls.count()).toBe(0);
    expect(await page.db.horses.get(COMET)).toMatchObject({ name: 'Comet' });
  });

  it('an edit whose host was never told (the tab closed at once) is made at the next load, and still counts as unsent', async () => {
    const names = await device();
    const { page, link, close } = held(names);
    await page.writes.horses.update(COMET, { ...HORSE, notes: 'shod on Monday' });
    link.drop();
    await close();

    const next = await nextStart(names);
    expect(horseIn(next.data.doc, COMET)).toMatchObject({ name: 'Comet', notes: 'shod on Monday' });
    expect(await next.data.db.stagedCalls.count()).toBe(0);
    expect(await next.data.countUnsent()).toEqual({ records: 1, photos: 0 });
  });

  it('an edit already in the stored document (the start was cut before its row was deleted) is not made again over a later change', async () => {
    // The replay of the first start wrote "Comet II" under the id it noted, and y-indexeddb
    // stored it; another device's rename to "Comet III" synced after it. The row remained.
    const replayed = 0x5eed;
    const names = await device((doc) => {
      const own = doc.clientID;
      doc.clientID = replayed;
      collectionMap(doc, 'horses').get(COMET)?.set('name', 'Comet II');
      doc.clientID = own;
    });
    const stored = new Y.Doc();
    const persistence = new IndexeddbPersistence(names.docDbName, stored);
    await persistence.whenSynced;
    stored.transact(() => collectionMap(stored, 'horses').get(COMET)?.set('name', 'Comet III'));
    await persistence.destroy();
    const row: Omit<StagedCallRow, 'seq'> = {
      repository: 'horses',
      method: 'update',
      args: [COMET, { ...HORSE, name: 'Comet II' }],
      createdAt: '2026-11-26T08:00:00.000Z',
      replay: replayed,
    };
    await readDb(names).stagedCalls.add(row as StagedCallRow);

    const next = await nextStart(names);
    expect(horseIn(next.data.doc, COMET)).toMatchObject({ name: 'Comet III' });
    expect(await next.data.db.stagedCalls.count()).toBe(0);
    // The change is this device's, waiting for the server: Sign Out warns of it.
    expect(await next.data.countUnsent()).toEqual({ records: 1, photos: 0 });
  });

  it('an edit noted for replay but not in the stored document (cut before it was stored) is made', async () => {
    const names = await device();
    const row = {
      repository: 'horses',
      method: 'update',
      args: [COMET, { ...HORSE, name: 'Comet II' }],
      createdAt: '2026-11-26T08:00:00.000Z',
      replay: 77,
    };
    await readDb(names).stagedCalls.add(row as StagedCallRow);
    const next = await nextStart(names);
    expect(horseIn(next.data.doc, COMET)).toMatchObject({ name: 'Comet II' });
    expect(await next.data.db.stagedCalls.count()).toBe(0);
  });

  it('an edit of a horse deleted meanwhile is not kept, and the page is told; the row shows the document again', async () => {
    // The read model still shows a horse the document no longer has (deleted elsewhere).
    const names = await device(() => {}, [{ ...HORSE, id: DELETED, name: 'Gone' }]);
    const { page, link } = held(names);
    await page.writes.horses.update(DELETED, { ...HORSE, name: 'Gone Again' });
    expect(await page.db.horses.get(DELETED)).toMatchObject({ name: 'Gone Again' });

    link.release();
    await page.loaded;
    await expect
      .poll(() => page.notices.get().batches.flatMap((batch) => batch.notices))
      .toEqual([
        { collection: 'horses', id: DELETED, action: 'reverted', fields: {}, reason: 'it was deleted before this change reached it' },
      ]);
    await page.projection.idle();
    expect(await page.db.horses.get(DELETED)).toBeUndefined();
    expect(await page.db.stagedCalls.count()).toBe(0);
    expect(await page.countUnsent()).toEqual({ records: 0, photos: 0 });
  });

  it('rows that are not staged edits are dropped unmade; a valid row after them is made', async () => {
    const names = await device();
    const db = readDb(names);
    const createdAt = '2026-11-26T08:00:00.000Z';
    const rows = [
      { repository: 'horses', method: 'remove', args: [COMET] },
      { repository: 'sales', method: 'create', args: [COMET, {}] },
      { repository: 'horses', method: 'update', args: 'not a list' },
      { repository: 'horses', method: 'update', args: [{ id: COMET }, HORSE] },
      { repository: 'horses', method: 'update', args: [COMET, { ...HORSE, name: 'Kept' }] },
    ];
    for (const row of rows) await db.stagedCalls.add({ ...row, createdAt } as StagedCallRow);
    const next = await nextStart(names);
    expect(horseIn(next.data.doc, COMET)).toMatchObject({ name: 'Kept', notes: 'grey mane' });
    expect(await next.data.db.stagedCalls.count()).toBe(0);
  });
});
