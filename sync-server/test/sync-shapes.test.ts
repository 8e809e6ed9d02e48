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
    // Every refusal here costs the one Staff member's budget of changes put back: room for all of them.
    ({
      server,
      staff,
      lookups: { breed: ids.breed, color: ids.color, gender: ids.gender },
    } = await startStaffRanch(kind, { syncLimits: { invalidPerMinute: 100_000 } }));
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

  /** Bytes of the whole document as a new device downloads it. */
  async function fullState(): Promise<number> {
    const fresh = await observer();
    return Y.encodeStateAsUpdate(fresh.doc).byteLength;
  }
  /**
   * The change is refused before it is applied: the socket closes with 4400 and says why, and
   * nothing of it reaches the document a new device downloads.
   */
  async function refusedWithoutTrace(change: (doc: Y.Doc) => void, reason: RegExp): Promise<void> {
    const before = await fullState();
    const a = await hostile();
    const closes: { code: number; reason: string }[] = [];
    a.provider.on('connection-close', (event) => event && closes.push({ code: event.code, reason: event.reason }));
    a.doc.transact(() => change(a.doc));
    await expect.poll(() => closes[0]).toMatchObject({ code: 4400, reason: expect.stringMatching(reason) });
    const fresh = await observer();
    expect(invalidIn(fresh.doc)).toEqual([]);
    expect(Y.encodeStateAsUpdate(fresh.doc).byteLength).toBe(before);
  }

  it('removes a plain value under an id', async () => {
    const a = await hostile();
    const string = newId();
    a.doc.transact(() => {
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

  it('[Y2] refuses, before applying it, a key that is not an entity id: any other text, an uppercase id, a long key', async () => {
    await refusedWithoutTrace(
      (doc) => collectionMap(doc, 'horses').set('not-a-uuid', new Y.Map() as never),
      /"not-a-uuid" in horses is not a record id/,
    );
    // Postgres would take an uppercase id for the lowercase one.
    const upper = ids.horse!.toUpperCase();
    await refusedWithoutTrace(
      (doc) => writeEntity(doc, 'horses', upper, { name: 'Shadow', breedId: ids.breed!, colorId: ids.color!, genderId: ids.gender! }),
      /is not a record id/,
    );
    expect(await horseRow(ids.horse!)).toMatchObject({ name: 'Goliath' });
    await refusedWithoutTrace((doc) => collectionMap(doc, 'buyers').set('k'.repeat(1 << 20), new Y.Map() as never), /longer than 64 bytes/);
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

  it('[Y2] refuses, before applying it, a field a record does not have, and a key inside a field', async () => {
    const horse = (doc: Y.Doc) => collectionMap(doc, 'horses').get(ids.horse!) as unknown as Y.Map<unknown>;
    await refusedWithoutTrace((doc) => horse(doc).set('junk', 'x'.repeat(100_000)), /"junk" is not a field of a horse/);
    await refusedWithoutTrace((doc) => horse(doc).set('f'.repeat(1 << 20), 'x'), /longer than 64 bytes/);
    await refusedWithoutTrace((doc) => {
      const inner = new Y.Map<unknown>();
      inner.set('k', 1);
      horse(doc).set('notes', inner);
    }, /inside a record's field/);
    expect(await horseRow(ids.horse!)).toEqual({ name: 'Goliath', notes: 'Calm' });
  });

  it('writes back fields holding shared types, objects or over-long text', async () => {
    const a = await hostile();
    a.doc.transact(() => {
      const horse = collectionMap(a.doc, 'horses').get(ids.horse!) as unknown as Y.Map<unknown>;
      horse.set('name', new Y.Map());
      horse.set('priceUsd', { amount: 5 });
      horse.set('notes', 'n'.repeat(200_000));
    });
    await untilSaved(a);
    const horse = collectionMap(a.doc, 'horses').get(ids.horse!) as unknown as Y.Map<unknown>;
    expect(horse.toJSON()).toMatchObject({ name: 'Goliath', priceUsd: null, notes: 'Calm' });
    expect(a.notices).toContainEqual(expect.objectContaining({ id: ids.horse, action: 'reverted' }));
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

  it('[Y2] refuses, before applying it, a top-level type outside the layout and list content under a collection', async () => {
    await refusedWithoutTrace((doc) => doc.getText('junk').insert(0, 'j'.repeat(50_000)), /"junk" is not a collection/);
    await refusedWithoutTrace((doc) => doc.getMap('R'.repeat(1 << 20)).set('k', 'v'), /is not a collection/);
    // A client that takes `payments` for a list: its items would land in the server's map as list content.
    const listy = new Y.Doc();
    listy.getArray('payments').insert(0, ['p'.repeat(50_000)]);
    await refusedWithoutTrace((doc) => Y.applyUpdate(doc, Y.encodeStateAsUpdate(listy)), /list content in payments/);
  });
});
