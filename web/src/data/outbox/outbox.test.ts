// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { IndexeddbPersistence } from 'y-indexeddb';
import { collectionMap, writeEntity } from '../../../../shared/index.ts';
import { openRanchDb, type RanchDb } from '../db.ts';
import { remoteControls } from '../host/host-api.ts';
import { createRpcClient } from '../rpc/client.ts';
import { makeIntent, type WriteIntent } from './intent.ts';
import { createDataHost } from '../host/data-host.ts';
import { openHeld, type Setup } from '../../../test/held-host.ts';

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

/** The read database as another connection sees it (an intent appended directly, as any page of the origin may). */
function readDb(names: Names): RanchDb {
  const db = openRanchDb(names.readDbName);
  cleanups.push(() => db.close());
  return db;
}

const horseIn = (doc: Y.Doc, id: string) => collectionMap(doc, 'horses').get(id)?.toJSON();

describe('the device outbox: every write, before and after the document has loaded', () => {
  it('[O2] a horse edited during the load is in the outbox at once and answered once the load is over; counted as unsent', async () => {
    const { host, page, link } = held(await device());
    const answer = page.writes.horses.update(COMET, { ...HORSE, name: 'Comet II' });
    await expect.poll(() => page.db.outbox.count()).toBe(1);
    expect(host.data.docLoaded).toBe(false);

    link.release();
    await answer;
    expect(horseIn(host.data.doc, COMET)).toMatchObject({ name: 'Comet II', notes: 'grey mane' });
    expect(await page.db.outbox.count()).toBe(0);
    expect(await page.countUnsent()).toEqual({ records: 1, photos: 0 });
    await page.projection.idle();
    expect(await page.db.horses.get(COMET)).toMatchObject({ name: 'Comet II' });
  });

  it('suppliers, buyers and horses written during the same load are applied in the order asked', async () => {
    const OWNER = '0190a000-0000-7000-8000-0000000000d1';
    const BUYER = '0190a000-0000-7000-8000-0000000000e1';
    const contact = { firstName: 'Ann', lastName: 'Lee' };
    const names = await device((doc) => {
      writeEntity(doc, 'owners', OWNER, { ...contact, createdAt: '2026-01-01T00:00:00.000Z' });
      writeEntity(doc, 'buyers', BUYER, contact);
    });
    const { host, page, link } = held(names);
    const answers = [
      page.writes.owners.update(OWNER, { firstName: 'Ann', lastName: 'Long' }),
      page.writes.buyers.update(BUYER, { firstName: 'Bea', lastName: 'Lee' }),
      page.writes.horses.create({ ...HORSE, name: 'Foal' }),
      page.writes.horses.update(COMET, { ...HORSE, name: 'First' }),
      page.writes.horses.update(COMET, { ...HORSE, name: 'Second' }),
    ];
    await expect.poll(() => page.db.outbox.count()).toBe(answers.length);

    link.release();
    const [, , foal] = await Promise.all(answers);
    expect(collectionMap(host.data.doc, 'owners').get(OWNER)?.toJSON()).toMatchObject({ lastName: 'Long' });
    expect(collectionMap(host.data.doc, 'buyers').get(BUYER)?.toJSON()).toMatchObject({ firstName: 'Bea' });
    expect(horseIn(host.data.doc, String(foal))).toMatchObject({ name: 'Foal' });
    expect(horseIn(host.data.doc, COMET)).toMatchObject({ name: 'Second' });
    expect(await page.countUnsent()).toEqual({ records: 4, photos: 0 });
  });

  it('an edit the schema refuses rejects once applied, and nothing of it is kept', async () => {
    const { page, link } = held(await device());
    const answer = page.writes.horses.update(COMET, { ...HORSE, name: ' ' });
    link.release();
    await expect(answer).rejects.toMatchObject({ name: 'ValidationError' });
    expect(await page.db.outbox.count()).toBe(0);
    await page.projection.idle();
    expect(await page.db.horses.get(COMET)).toMatchObject({ name: 'Comet' });
  });

  it('an edit whose host was never told (the tab closed at once) is made at the next load, and still counts as unsent', async () => {
    const names = await device();
    const { page, link, close } = held(names);
    void page.writes.horses.update(COMET, { ...HORSE, notes: 'shod on Monday' }).catch(() => {});
    await expect.poll(() => page.db.outbox.count()).toBe(1);
    link.drop();
    await close();

    const next = await nextStart(names);
    expect(horseIn(next.data.doc, COMET)).toMatchObject({ name: 'Comet', notes: 'shod on Monday' });
    expect(await next.data.db.outbox.count()).toBe(0);
    expect(await next.data.countUnsent()).toEqual({ records: 1, photos: 0 });
  });

  it('a write appended before the document loaded, by a page that then went away, is applied once at the next start, in order', async () => {
    const names = await device();
    const db = readDb(names);
    const create = makeIntent('horses', 'create', [{ ...HORSE, name: 'Foal' }]);
    const foal = create.creates[0]!;
    await db.outbox.add(create);
    await db.outbox.add(makeIntent('horses', 'update', [foal, { ...HORSE, name: 'Foal Two' }]));
    await db.outbox.add(makeIntent('horses', 'update', [foal, { ...HORSE, name: 'Foal Three' }]));
    await db.outbox.add(makeIntent('horses', 'update', [COMET, { ...HORSE, notes: 'shod' }]));

    const next = await nextStart(names);
    expect(horseIn(next.data.doc, foal)).toMatchObject({ name: 'Foal Three' });
    expect(horseIn(next.data.doc, COMET)).toMatchObject({ notes: 'shod' });
    expect(collectionMap(next.data.doc, 'horses').size).toBe(2);
    expect(await db.outbox.count()).toBe(0);
    await next.destroy();

    // Once more: nothing is left to apply, and nothing is made twice.
    const after = await nextStart(names);
    expect(collectionMap(after.data.doc, 'horses').size).toBe(2);
    expect(horseIn(after.data.doc, foal)).toMatchObject({ name: 'Foal Three' });
  });

  it('a crash after the change was stored and before the intent was removed neither doubles nor loses it', async () => {
    const names = await device();
    const first = await nextStart(names);
    const made = (await first.data.writes.horses.create({ ...HORSE, name: 'Foal' })) as string;
    expect(await first.data.db.outbox.count()).toBe(0);
    await first.destroy();
    // As if the start had been cut after the store's commit: the intents are still in the outbox.
    const db = readDb(names);
    const create: WriteIntent = { ...makeIntent('horses', 'create', [{ ...HORSE, name: 'Foal' }]), creates: [made] };
    await db.outbox.add(create);
    await db.outbox.add(makeIntent('horses', 'update', [made, { ...HORSE, name: 'Foal' }]));
    await db.outbox.add(makeIntent('horses', 'remove', [DELETED]));

    const next = await nextStart(names);
    expect(collectionMap(next.data.doc, 'horses').size).toBe(2);
    expect(horseIn(next.data.doc, made)).toMatchObject({ name: 'Foal' });
    expect(await db.outbox.count()).toBe(0);
    expect(next.data.notices.get().batches).toEqual([]);
  });

  it('a write a tab appended and closed before telling the running host is applied when a tab is shown again', async () => {
    const names = await device();
    const host = await nextStart(names);
    await readDb(names).outbox.add(makeIntent('horses', 'update', [COMET, { ...HORSE, notes: 'shod' }]));
    const page = new MessageChannel();
    host.rpc.attach(page.port1 as never);
    cleanups.push(() => page.port1.close());
    const client = createRpcClient(page.port2 as never);
    await remoteControls(client).reconnect();
    await expect.poll(() => horseIn(host.data.doc, COMET)?.notes).toBe('shod');
    await expect.poll(() => host.data.db.outbox.count()).toBe(0);
    client.close();
  });

  it('a crash before the change was stored applies the intent at the next start', async () => {
    const names = await device();
    await readDb(names).outbox.add(makeIntent('horses', 'update', [COMET, { ...HORSE, name: 'Comet II' }], true));
    const next = await nextStart(names);
    expect(horseIn(next.data.doc, COMET)).toMatchObject({ name: 'Comet II' });
    expect(await next.data.db.outbox.count()).toBe(0);
    expect(await next.data.countUnsent()).toEqual({ records: 1, photos: 0 });
  });

  it('creates an earlier app staged as Yjs updates are applied once, counted as unsent; a row that is not a create is dropped', async () => {
    const names = await device();
    const page = new Y.Doc();
    const FOAL = '0190a000-0000-7000-8000-0000000000f1';
    writeEntity(page, 'horses', FOAL, { ...HORSE, name: 'Foal' });
    const db = readDb(names);
    await db.stagedUpdates.add({ update: Y.encodeStateAsUpdate(page), createdAt: '2026-12-01T08:00:00.000Z' } as never);
    await db.stagedUpdates.add({ update: new Uint8Array([1, 2, 3]), createdAt: '2026-12-01T08:00:01.000Z' } as never);

    const next = await nextStart(names);
    expect(horseIn(next.data.doc, FOAL)).toMatchObject({ name: 'Foal' });
    expect(await db.stagedUpdates.count()).toBe(0);
    expect(await next.data.countUnsent()).toEqual({ records: 1, photos: 0 });
  });

  it('an edit of a horse deleted meanwhile is refused once applied; the row shows the document again', async () => {
    // The read model still shows a horse the document no longer has (deleted elsewhere).
    const names = await device(() => {}, [{ ...HORSE, id: DELETED, name: 'Gone' }]);
    const { page, link } = held(names);
    const answer = page.writes.horses.update(DELETED, { ...HORSE, name: 'Gone Again' });
    await expect.poll(() => page.db.outbox.count()).toBe(1);

    link.release();
    await expect(answer).rejects.toThrow();
    await page.projection.idle();
    expect(await page.db.horses.get(DELETED)).toBeUndefined();
    expect(await page.db.outbox.count()).toBe(0);
    expect(await page.countUnsent()).toEqual({ records: 0, photos: 0 });
  });

  it('an edit answered before it was applied (an earlier app staged it) that is refused is told as a notice', async () => {
    const names = await device();
    await readDb(names).outbox.add(makeIntent('horses', 'update', [DELETED, { ...HORSE, name: 'Gone Again' }], true));
    const next = await nextStart(names);
    await expect
      .poll(() => next.data.notices.get().batches.flatMap((batch) => batch.notices))
      .toEqual([
        { collection: 'horses', id: DELETED, action: 'reverted', fields: {}, reason: 'it was deleted before this change reached it' },
      ]);
    expect(await next.data.db.outbox.count()).toBe(0);
  });

  it('rows that are not writes are dropped unmade, a write the document refuses is not kept; a valid one after them is made', async () => {
    const names = await device();
    const db = readDb(names);
    const valid = makeIntent('horses', 'update', [COMET, HORSE]);
    const rows = [
      { ...valid, id: 'not an id' },
      { ...valid, repository: 'photos', method: 'queue' },
      { ...valid, repository: 'horses', method: 'replacePhoto' },
      { ...valid, args: 'not a list' },
      { ...makeIntent('horses', 'create', [HORSE]), creates: [] },
      { ...makeIntent('horses', 'create', [HORSE]), creates: ['0190A000-0000-7000-8000-0000000000C9'] },
      makeIntent('lookups', 'create', ['__proto__', { name: 'x' }]),
      makeIntent('horses', 'update', [{ id: COMET }, HORSE]),
      makeIntent('horses', 'update', [COMET, { ...HORSE, name: 'Kept' }]),
    ];
    for (const row of rows) await db.outbox.add(row as WriteIntent);
    const next = await nextStart(names);
    expect(horseIn(next.data.doc, COMET)).toMatchObject({ name: 'Kept', notes: 'grey mane' });
    expect(collectionMap(next.data.doc, 'horses').size).toBe(1);
    expect(await next.data.db.outbox.count()).toBe(0);
  });
});
