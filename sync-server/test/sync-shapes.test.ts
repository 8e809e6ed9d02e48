import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import type { TestServer } from './support/server.ts';
import { startStaffRanch } from './support/staff-ranch.ts';
import { connectAckedDevice, connectDevice, whenSynced, type Device } from './support/sync-client.ts';
import { untilSaved } from './support/until-saved.ts';
import { collectionMap, COLLECTIONS, getEntity, newId, readRecord, writeEntity, type Collection } from '../../shared/index.ts';

type AckedDevice = ReturnType<typeof connectAckedDevice>;

/**
 * What a stock Yjs client can write under the public document layout that is not a record
 * (docs/sync-rules.md "Shape before meaning"): the server puts it right in the same commit,
 * so no other device ever holds it, and it stays up for everyone.
 */
describe.each(databaseKinds())('[Y3] [Y6] malformed shapes sent by a stock client (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;
  const devices: Device[] = [];
  const ids: Record<string, string> = {};
  const create = (path: string, body: unknown) => createdId(staff, path, body);

  beforeAll(async () => {
    ({
      server,
      staff,
      lookups: { breed: ids.breed, color: ids.color, gender: ids.gender },
    } = await startStaffRanch(kind));
    ids.horse = await create('/api/horses', {
      name: 'Goliath',
      breedId: ids.breed,
      colorId: ids.color,
      genderId: ids.gender,
      notes: 'Calm',
    });
    ids.other = await create('/api/horses', { name: 'Other', breedId: ids.breed, colorId: ids.color, genderId: ids.gender });
  });
  afterEach(() => devices.splice(0).forEach((d) => d.destroy()));
  afterAll(() => server.destroy());

  async function hostile(): Promise<AckedDevice> {
    const device = connectAckedDevice(server.url, staff.cookie);
    devices.push(device);
    await whenSynced(device);
    return device;
  }
  async function observer(): Promise<Device> {
    const device = connectDevice(server.url, staff.cookie);
    devices.push(device);
    await whenSynced(device);
    return device;
  }
  /** Until the server has committed (and compensated) everything the device wrote. */
  const horseRow = async (id: string) => (await server.db.sql`select name, notes from horses where id = ${id}`)[0];
  /** Every value under every collection key of a replica reads as a valid record. */
  function invalidIn(doc: Y.Doc): string[] {
    return COLLECTIONS.flatMap((collection: Collection) =>
      [...collectionMap(doc, collection).entries()]
        .filter(([key, value]) => !readRecord(collection, key, value).valid)
        .map(([key]) => `${collection}/${key}`),
    );
  }
  /** A fresh stock device syncs the whole document, and every entity in it is a valid record. */
  async function freshDeviceHoldsOnlyRecords(): Promise<void> {
    const fresh = await observer();
    expect(invalidIn(fresh.doc)).toEqual([]);
  }

  it('removes a key that is not an entity id and a plain value under an id', async () => {
    const a = await hostile();
    const string = newId();
    a.doc.transact(() => {
      collectionMap(a.doc, 'horses').set('not-a-uuid', new Y.Map() as never);
      collectionMap(a.doc, 'owners').set(string, 'a string' as never);
      collectionMap(a.doc, 'breeds').set(newId(), 42 as never);
    });
    await untilSaved(a);
    expect(invalidIn(a.doc)).toEqual([]);
    expect(a.notices).toContainEqual(
      expect.objectContaining({ collection: 'owners', id: string, action: 'removed', reason: 'Not a supplier record' }),
    );
    await freshDeviceHoldsOnlyRecords();
  });

  it('removes an entity under an uppercase id, which Postgres would take for the lowercase one', async () => {
    const a = await hostile();
    const upper = ids.horse!.toUpperCase();
    a.doc.transact(() =>
      writeEntity(a.doc, 'horses', upper, { name: 'Shadow', breedId: ids.breed!, colorId: ids.color!, genderId: ids.gender! }),
    );
    await untilSaved(a);
    expect(collectionMap(a.doc, 'horses').has(upper)).toBe(false);
    expect(await horseRow(ids.horse!)).toMatchObject({ name: 'Goliath' });
  });

  it('writes a missing or foreign id back to the key, leaving the horse it named alone', async () => {
    const a = await hostile();
    const b = await observer();
    const idless = newId();
    a.doc.transact(() => {
      const map = new Y.Map<unknown>();
      for (const [field, value] of Object.entries({ name: 'No id', breedId: ids.breed, colorId: ids.color, genderId: ids.gender }))
        map.set(field, value);
      collectionMap(a.doc, 'horses').set(idless, map as never);
      collectionMap(a.doc, 'horses').get(ids.horse!)?.set('id', ids.other!);
    });
    await untilSaved(a);
    expect(getEntity(a.doc, 'horses', idless)?.id).toBe(idless);
    expect(getEntity(a.doc, 'horses', ids.horse!)?.id).toBe(ids.horse);
    await expect.poll(() => getEntity(b.doc, 'horses', ids.horse!)?.id).toBe(ids.horse);
    expect(await horseRow(idless)).toEqual({ name: 'No id', notes: null });
    expect(await horseRow(ids.other!)).toEqual({ name: 'Other', notes: null });
  });

  it('restores a valid horse replaced by a Y.Text, and removes a Y.Text or Y.Array where a new horse belongs', async () => {
    const a = await hostile();
    const b = await observer();
    const text = newId();
    a.doc.transact(() => {
      collectionMap(a.doc, 'horses').set(ids.horse!, new Y.Text('not a horse') as never);
      collectionMap(a.doc, 'horses').set(text, new Y.Text('nor this') as never);
      collectionMap(a.doc, 'horses').set(newId(), new Y.Array() as never);
    });
    await untilSaved(a);
    expect(getEntity(a.doc, 'horses', ids.horse!)).toMatchObject({ id: ids.horse, name: 'Goliath' });
    expect(collectionMap(a.doc, 'horses').has(text)).toBe(false);
    await expect.poll(() => getEntity(b.doc, 'horses', ids.horse!)?.name).toBe('Goliath');
    expect(invalidIn(b.doc)).toEqual([]);
    expect(a.notices).toContainEqual(expect.objectContaining({ id: ids.horse, action: 'restored', reason: 'Not a horse record' }));
    expect(await horseRow(ids.horse!)).toMatchObject({ name: 'Goliath' });
  });

  it('deletes unknown fields, and writes back fields holding shared types, objects or over-long text', async () => {
    const a = await hostile();
    a.doc.transact(() => {
      const horse = collectionMap(a.doc, 'horses').get(ids.horse!) as unknown as Y.Map<unknown>;
      horse.set('junk', 'x'.repeat(100_000));
      horse.set('name', new Y.Map());
      horse.set('priceUsd', { amount: 5 });
      horse.set('notes', 'n'.repeat(200_000));
    });
    await untilSaved(a);
    const horse = collectionMap(a.doc, 'horses').get(ids.horse!) as unknown as Y.Map<unknown>;
    expect(horse.has('junk')).toBe(false);
    expect(horse.toJSON()).toMatchObject({ name: 'Goliath', priceUsd: null, notes: 'Calm' });
    expect(a.notices).toContainEqual(expect.objectContaining({ id: ids.horse, action: 'reverted', dropped: ['junk'] }));
    expect(await horseRow(ids.horse!)).toEqual({ name: 'Goliath', notes: 'Calm' });
    await freshDeviceHoldsOnlyRecords();
  });

  it('[Y8] refuses an update nesting maps 5,000 deep (closing its socket with 4400), and keeps serving the other devices', async () => {
    const a = await hostile();
    const b = await observer();
    const closes: number[] = [];
    a.provider.on('connection-close', (event) => event && closes.push(event.code));
    a.doc.transact(() => {
      let parent = collectionMap(a.doc, 'horses').get(ids.horse!) as unknown as Y.Map<unknown>;
      for (let depth = 0; depth < 5000; depth++) {
        const child = new Y.Map<unknown>();
        parent.set(depth === 0 ? 'notes' : 'deeper', child);
        parent = child;
      }
    });
    await expect.poll(() => closes[0]).toBe(4400);
    const marker = newId();
    b.doc.transact(() => writeEntity(b.doc, 'colors', marker, { name: 'Still served', isActive: true }));
    await expect.poll(async () => (await server.db.sql`select name from colors where id = ${marker}`)[0]?.name).toBe('Still served');
    expect(getEntity(b.doc, 'horses', ids.horse!)?.notes).toBe('Calm');
    expect(await horseRow(ids.horse!)).toMatchObject({ notes: 'Calm' });
  });

  it('[Y2] clears unknown top-level types and list content under a collection, so no device downloads them', async () => {
    const a = await hostile();
    a.doc.transact(() => {
      a.doc.getText('junk').insert(0, 'j'.repeat(50_000));
      a.doc.getMap('extra').set('k', 'v'.repeat(50_000));
    });
    // A client that takes `payments` for a list: its items land in the server's map as list content.
    const listy = new Y.Doc();
    listy.getArray('payments').insert(0, ['p'.repeat(50_000)]);
    a.doc.transact(() => Y.applyUpdate(a.doc, Y.encodeStateAsUpdate(listy)));
    await untilSaved(a);
    const fresh = await observer();
    expect(fresh.doc.getText('junk').toString()).toBe('');
    expect(fresh.doc.getMap('extra').size).toBe(0);
    expect(Y.encodeStateAsUpdate(fresh.doc).byteLength).toBeLessThan(20_000);
  });
});
