// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { IndexeddbPersistence } from 'y-indexeddb';
import { collectionMap, writeEntity } from '../../../../shared/index.ts';
import { openRanchDb } from '../db.ts';
import { createDataHost } from '../host/data-host.ts';
import { createRpcClient } from '../rpc/client.ts';
import type { Endpoint } from '../rpc/wire.ts';
import { openWorkerData } from '../worker-client.ts';
import { holdStore } from '../../../test/hold-store.ts';
import { openHeld as openHeldHost, type Setup } from '../../../test/held-host.ts';

let counter = 0;
const BREED = '0190a000-0000-7000-8000-0000000000b1';
const HORSE = { name: 'Foal', breedId: BREED, colorId: BREED, genderId: BREED, notes: 'born in May' };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A device whose read model already shows rows (so the host waits to be told to load) and a page on a held link. */
async function openHeld(loadAtOnce: boolean): Promise<Setup> {
  const suffix = `${Date.now()}-${++counter}`;
  const names = { docDbName: `staged-doc-${suffix}`, readDbName: `staged-read-${suffix}` };
  const db = openRanchDb(names.readDbName);
  await db.horses.put({ id: '0190a000-0000-7000-8000-0000000000ab', name: 'Comet' } as never);
  db.close();
  const setup = openHeldHost(names, loadAtOnce);
  cleanups.push(setup.close);
  return setup;
}

const horseIn = (doc: Y.Doc, id: string) => collectionMap(doc, 'horses').get(id)?.toJSON();

describe('creates staged by the page while the data worker is loading', () => {
  it('[O2] a new horse is answered and shown before the host answers anything; the host merges it, counted as unsent', async () => {
    const { host, page, link } = await openHeld(false);
    const id = await page.writes.horses.create(HORSE);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await page.db.horses.get(id)).toMatchObject({ id, name: 'Foal', notes: 'born in May' });
    expect(host.data.docLoaded).toBe(false);
    expect(horseIn(host.data.doc, id)).toBeUndefined();

    link.release();
    await page.loaded;
    await page.projection.idle();
    expect(horseIn(host.data.doc, id)).toMatchObject({ name: 'Foal', breedId: BREED, notes: 'born in May' });
    expect(await page.countUnsaved()).toBe(1);
    expect(await page.countUnsent()).toEqual({ records: 1, photos: 0 });
    expect(await page.db.outbox.count()).toBe(0);
  });

  it('a host that had loaded before the page heard of it applies the horse when the page says so (drainOutbox)', async () => {
    const { host, page, link } = await openHeld(true);
    await host.data.loaded;
    const id = await page.writes.horses.create(HORSE);
    expect(horseIn(host.data.doc, id)).toBeUndefined();
    expect(await page.db.outbox.count()).toBe(1);
    link.release();
    await expect.poll(() => horseIn(host.data.doc, id)).toMatchObject({ name: 'Foal', breedId: BREED });
    expect(await page.countUnsaved()).toBe(1);
    await expect.poll(() => page.db.outbox.count()).toBe(0);
  });

  it('a new horse is answered while y-indexeddb holds the stored document (the load under way), and stored there after it', async () => {
    // A device with a ranch stored; another connection keeps a readwrite transaction on
    // y-indexeddb's updates open, as the host's load does through its whole apply.
    const suffix = `busy-${Date.now()}-${++counter}`;
    const docDbName = `staged-doc-${suffix}`;
    const readDbName = `staged-read-${suffix}`;
    const stored = new Y.Doc();
    const persistence = new IndexeddbPersistence(docDbName, stored);
    await persistence.whenSynced;
    stored.transact(() => writeEntity(stored, 'horses', '0190a000-0000-7000-8000-0000000000ab', { name: 'Comet', breedId: BREED }));
    await persistence.destroy();
    const db = openRanchDb(readDbName);
    await db.horses.put({ id: '0190a000-0000-7000-8000-0000000000ab', name: 'Comet' } as never);
    db.close();
    const release = await holdStore(docDbName, 'updates');
    let released = false;
    cleanups.push(() => released || release());

    const host = createDataHost({ docDbName, readDbName, loadAtOnce: true });
    const channel = new MessageChannel();
    host.rpc.attach(channel.port1 as unknown as Endpoint);
    const page = openWorkerData(createRpcClient(channel.port2 as unknown as Endpoint), { readDbName });
    let hostDestroyed: Promise<void> | null = null;
    const destroyHost = () => (hostDestroyed ??= host.destroy());
    cleanups.push(async () => {
      page.destroy();
      channel.port1.close();
      channel.port2.close();
      await destroyHost();
    });

    const id = await page.writes.horses.create(HORSE);
    expect(await page.db.horses.get(id)).toMatchObject({ name: 'Foal' });
    expect(host.data.docLoaded).toBe(false);

    released = true;
    release();
    await page.loaded;
    expect(horseIn(host.data.doc, id)).toMatchObject({ name: 'Foal', notes: 'born in May' });
    expect(horseIn(host.data.doc, '0190a000-0000-7000-8000-0000000000ab')).toMatchObject({ name: 'Comet' });
    expect(await page.db.outbox.count()).toBe(0);
    expect(await page.countUnsent()).toEqual({ records: 1, photos: 0 });
    // In the document's own store now: a start with no read model at all has it.
    await destroyHost();
    const next = createDataHost({ docDbName, readDbName: `${readDbName}-fresh`, loadAtOnce: true });
    cleanups.push(() => next.destroy());
    await next.data.loaded;
    expect(horseIn(next.data.doc, id)).toMatchObject({ name: 'Foal' });
  });

  it('a horse whose host was never told (the tab closed at once) is there after the next load', async () => {
    for (const loadedBefore of [false, true]) {
      const { host, page, link, docDbName, readDbName, close } = await openHeld(loadedBefore);
      if (loadedBefore) await host.data.loaded;
      const id = await page.writes.horses.create(HORSE);
      link.drop();
      await close();

      const next = createDataHost({ docDbName, readDbName, loadAtOnce: true });
      cleanups.push(() => next.destroy());
      await next.data.loaded;
      expect(horseIn(next.data.doc, id), `host loaded before: ${loadedBefore}`).toMatchObject({ name: 'Foal', breedId: BREED });
      expect(await next.data.db.outbox.count()).toBe(0);
      await next.data.projection.idle();
      expect(await next.data.db.horses.get(id)).toMatchObject({ name: 'Foal' });
      // Still this device's change, waiting for the server (Sign Out and Clear Local Data warn of it).
      expect(await next.data.countUnsent()).toEqual({ records: 1, photos: 0 });
    }
  });

  it('a create the schema refuses rejects, and nothing is stored or shown', async () => {
    const { page } = await openHeld(false);
    await expect(page.writes.horses.create({ ...HORSE, name: ' ' })).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(page.writes.owners.create({ firstName: '', lastName: '' })).rejects.toMatchObject({ name: 'ValidationError' });
    expect(await page.db.outbox.count()).toBe(0);
    expect(await page.db.horses.count()).toBe(1);
    expect(await page.db.owners.count()).toBe(0);
  });

  it('a queued photo is marked in the outbox at once; other writes wait for the host', async () => {
    const { host, page, link } = await openHeld(false);
    const photoId = await page.photos.addDraft(new ArrayBuffer(8), 'image/jpeg', 8);
    await page.writes.photos.queue(photoId);
    expect(await page.db.photoOutbox.get(photoId)).toMatchObject({ queued: true });
    let edited = false;
    const edit = page.writes.lookups
      .create('breeds', { name: 'Arabian' })
      .then((breedId) => page.writes.lookups.rename('breeds', breedId, { name: 'Arab' }).then(() => (edited = true)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(edited).toBe(false);
    link.release();
    await edit;
    expect(host.data.docLoaded).toBe(true);
  });
});
