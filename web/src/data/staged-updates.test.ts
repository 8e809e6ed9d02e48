// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { collectionMap, writeEntity } from '../../../shared/index.ts';
import { openRanchDb, type RanchDb } from './db.ts';
import { createDataHost, type DataHost } from './host/data-host.ts';
import { remoteControls } from './host/host-api.ts';
import { createRpcClient } from './rpc/client.ts';
import type { Endpoint } from './rpc/wire.ts';
import type { WriteTargets } from './ranch-writes.ts';
import { createStagedDrain, stageUpdate } from './staged-updates.ts';
import { appendStoredUpdates } from './stored-update.ts';
import { holdStore } from '../../test/hold-store.ts';

let counter = 0;
const BREED = '0190a000-0000-7000-8000-0000000000b1';
/** Entity ids (the projection shows only valid ones). */
const ID = {
  good: '0190a000-0000-7000-8000-000000000101',
  deleting: '0190a000-0000-7000-8000-000000000102',
  first: '0190a000-0000-7000-8000-000000000103',
  twice: '0190a000-0000-7000-8000-000000000104',
  stopped: '0190a000-0000-7000-8000-000000000109',
  one1: '0190a000-0000-7000-8000-000000000105',
  one2: '0190a000-0000-7000-8000-000000000106',
  three1: '0190a000-0000-7000-8000-000000000107',
  three2: '0190a000-0000-7000-8000-000000000108',
};
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function names() {
  const suffix = `${Date.now()}-${++counter}`;
  return { docDbName: `drain-doc-${suffix}`, readDbName: `drain-read-${suffix}` };
}

/** A page's connection to the read database (the host has its own). */
function pageDb(readDbName: string): RanchDb {
  const db = openRanchDb(readDbName);
  cleanups.push(() => db.close());
  return db;
}

/** A create as a page stages it: a horse on a fresh document, its whole state as one update. */
function stagedHorse(id: string, name: string): { update: Uint8Array; client: number } {
  const staging = new Y.Doc();
  staging.transact(() => writeEntity(staging, 'horses', id, { name, breedId: BREED, colorId: BREED, genderId: BREED }));
  return { update: Y.encodeStateAsUpdate(staging), client: staging.clientID };
}

function openHost(docDbName: string, readDbName: string): DataHost & { controls: ReturnType<typeof remoteControls> } {
  const host = createDataHost({ docDbName, readDbName, loadAtOnce: true });
  const channel = new MessageChannel();
  host.rpc.attach(channel.port1 as unknown as Endpoint);
  const client = createRpcClient(channel.port2 as unknown as Endpoint);
  let destroyed: Promise<void> | null = null;
  const hostDestroy = host.destroy;
  const destroy = () => (destroyed ??= hostDestroy());
  cleanups.push(async () => {
    client.close();
    channel.port1.close();
    channel.port2.close();
    await destroy();
  });
  return Object.assign(host, { controls: remoteControls(client), destroy });
}

/** How many updates y-indexeddb's store of `dbName` holds. */
function storedUpdates(dbName: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const count = open.result.transaction('updates').objectStore('updates').count();
      count.onsuccess = () => {
        open.result.close();
        resolve(count.result);
      };
    };
  });
}

const horseIn = (doc: Y.Doc, id: string) => collectionMap(doc, 'horses').get(id)?.toJSON();
const vectorOf = (doc: Y.Doc) => Y.decodeStateVector(Y.encodeStateVector(doc));

describe('the host drains the creates pages staged (stagedUpdates)', () => {
  it('drops rows that are not a staged create, unapplied, and applies the valid ones after them, unsent until acknowledged', async () => {
    const { docDbName, readDbName } = names();
    const db = pageDb(readDbName);
    // A horse whose update also deletes something: no create, so none of it may be applied.
    const deleting = new Y.Doc();
    deleting.transact(() =>
      writeEntity(deleting, 'horses', ID.deleting, { name: 'Deleting', breedId: BREED, colorId: BREED, genderId: BREED, notes: 'x' }),
    );
    deleting.transact(() => collectionMap(deleting, 'horses').get(ID.deleting)?.delete('notes'));
    // An edit of a horse made elsewhere, without the horse: not whole, it would wait for it.
    const elsewhere = new Y.Doc();
    elsewhere.transact(() =>
      writeEntity(elsewhere, 'horses', ID.first, { name: 'Elsewhere', breedId: BREED, colorId: BREED, genderId: BREED }),
    );
    const before = Y.encodeStateVector(elsewhere);
    elsewhere.transact(() => collectionMap(elsewhere, 'horses').get(ID.first)?.set('notes', 'edited'));
    await db.stagedUpdates.bulkAdd([
      { update: 'horses', createdAt: 'a' },
      { update: [1, 2, 3], createdAt: 'b' },
      { update: new Uint8Array([1, 2, 3]), createdAt: 'c' },
      { update: Y.encodeStateAsUpdate(deleting), createdAt: 'd' },
      { update: Y.encodeStateAsUpdate(elsewhere, before), createdAt: 'e' },
    ] as never);
    const good = stagedHorse(ID.good, 'Good');
    await stageUpdate(db, good.update);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    cleanups.push(() => errors.mockRestore());

    const host = openHost(docDbName, readDbName);
    await host.data.loaded;
    expect(horseIn(host.data.doc, ID.good)).toMatchObject({ name: 'Good', breedId: BREED });
    expect(horseIn(host.data.doc, ID.deleting)).toBeUndefined();
    expect(await db.stagedUpdates.count()).toBe(0);
    const dropped = errors.mock.calls.filter(([message]) => String(message).startsWith('Dropped staged create'));
    expect(dropped).toHaveLength(5);
    await host.controls.idle();
    expect(await host.data.db.horses.get(ID.good)).toMatchObject({ name: 'Good' });
    expect(await host.data.db.horses.get(ID.deleting)).toBeUndefined();

    expect(await host.controls.countUnsent()).toEqual({ records: 1, photos: 0 });
    host.data.tracker.acknowledge(vectorOf(host.data.doc));
    expect(await host.controls.countUnsent()).toEqual({ records: 0, photos: 0 });
  });

  it('keeps a row until its update is stored in the document: a host gone before that loses nothing', async () => {
    const { docDbName, readDbName } = names();
    const db = pageDb(readDbName);
    const host = openHost(docDbName, readDbName);
    await host.data.loaded;
    // The document's store is busy: the drain cannot store the update yet.
    const release = await holdStore(docDbName, 'updates');
    let released = false;
    cleanups.push(() => released || release());
    const first = stagedHorse(ID.first, 'First');
    await stageUpdate(db, first.update);
    const draining = host.controls.drainStaged();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await db.stagedUpdates.count()).toBe(1);
    expect(horseIn(host.data.doc, ID.first)).toBeUndefined();

    released = true;
    release();
    await draining;
    expect(horseIn(host.data.doc, ID.first)).toMatchObject({ name: 'First' });
    expect(await db.stagedUpdates.count()).toBe(0);
  });

  it('a row applied and stored but not yet deleted (the host went away) is applied again, harmlessly, by the next load', async () => {
    const { docDbName, readDbName } = names();
    const db = pageDb(readDbName);
    const horse = stagedHorse(ID.twice, 'Twice');
    await stageUpdate(db, horse.update);
    await appendStoredUpdates(docDbName, [horse.update]);

    const host = openHost(docDbName, readDbName);
    await host.data.loaded;
    expect(horseIn(host.data.doc, ID.twice)).toMatchObject({ name: 'Twice' });
    expect(collectionMap(host.data.doc, 'horses').size).toBe(1);
    expect(await db.stagedUpdates.count()).toBe(0);
    expect(await host.controls.countUnsent()).toEqual({ records: 1, photos: 0 });
  });

  it('drains asked for at once (several pages) run one after the other: each row is stored once', async () => {
    const { docDbName, readDbName } = names();
    const db = pageDb(readDbName);
    // Open, as a page's read model is by its first create: stageUpdate commits on Dexie's connection itself.
    await db.open();
    const host = openHost(docDbName, readDbName);
    await host.data.loaded;

    const stageTwo = async (ids: string[]) => {
      for (const id of ids) {
        const horse = stagedHorse(id, id);
        await stageUpdate(db, horse.update);
      }
    };
    await stageTwo([ID.one1, ID.one2]);
    const beforeOne = await storedUpdates(docDbName);
    await host.controls.drainStaged();
    const storedByOne = (await storedUpdates(docDbName)) - beforeOne;

    await stageTwo([ID.three1, ID.three2]);
    const beforeThree = await storedUpdates(docDbName);
    await Promise.all([host.controls.drainStaged(), host.controls.drainStaged(), host.controls.drainStaged()]);
    expect((await storedUpdates(docDbName)) - beforeThree).toBe(storedByOne);
    for (const id of [ID.one1, ID.one2, ID.three1, ID.three2]) expect(horseIn(host.data.doc, id)).toMatchObject({ name: id });
    expect(await db.stagedUpdates.count()).toBe(0);
  });

  it('a host that stopped after the drain deleted the row, before its tracker stored the id: the next start counts the horse as unsent', async () => {
    const { docDbName, readDbName } = names();
    const db = pageDb(readDbName);
    const horse = stagedHorse(ID.stopped, 'Stopped');
    await stageUpdate(db, horse.update);
    // The drain of a host whose tracker never got to store what it adopted.
    // No edits are staged: the replay's repositories are never called.
    const calls = { targets: {} as WriteTargets, onRefused() {} };
    const drain = createStagedDrain({ db, doc: new Y.Doc(), tracker: { adopt() {} }, docDbName, calls });
    await drain.run();
    expect(await db.stagedUpdates.count()).toBe(0);

    const host = openHost(docDbName, readDbName);
    await host.data.loaded;
    expect(horseIn(host.data.doc, ID.stopped)).toMatchObject({ name: 'Stopped' });
    expect(await host.controls.countUnsent()).toEqual({ records: 1, photos: 0 });
  });
});
