import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { connectDevice, whenSynced, type Device } from './support/sync-client.ts';
import { collectionMap, deleteEntity, getEntity, newId, writeEntity } from '../../shared/index.ts';

describe.each(databaseKinds())('synced changes that would leave the ranch invalid (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;
  const devices: Device[] = [];
  const ids: Record<string, string> = {};

  async function device(): Promise<Device> {
    const created = connectDevice(server.url, staff.cookie);
    devices.push(created);
    await whenSynced(created);
    return created;
  }
  async function create(path: string, body: unknown): Promise<string> {
    const response = await staff.request(path, { method: 'POST', json: body });
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()).id;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    staff = await signInAs(server.url, admin, 'Staff');
    ids.breed = await create('/api/breeds', { name: 'Shire' });
    ids.color = await create('/api/colors', { name: 'Black' });
    ids.gender = await create('/api/genders', { name: 'Gelding' });
    ids.horse = await create('/api/horses', { name: 'Goliath', breedId: ids.breed, colorId: ids.color, genderId: ids.gender, priceUsd: '8000' });
  });
  afterEach(() => devices.splice(0).forEach((d) => d.destroy()));
  afterAll(() => server.destroy());

  it('writes a malformed field of a valid entity back to its last valid value, everywhere', async () => {
    const a = await device();
    const b = await device();
    a.doc.transact(() => {
      collectionMap(a.doc, 'horses').get(ids.horse!)?.set('priceUsd', 'a lot');
      collectionMap(a.doc, 'horses').get(ids.horse!)?.set('notes', 'Gentle giant');
    });
    // The good field is kept, the bad one compensated, on the sender and on others.
    await expect.poll(() => getEntity(a.doc, 'horses', ids.horse!)?.priceUsd).toBe('8000.00');
    await expect.poll(() => getEntity(b.doc, 'horses', ids.horse!)).toMatchObject({ priceUsd: '8000.00', notes: 'Gentle giant' });
    const [row] = await server.db.sql`select price_usd::text as price, notes from horses where id = ${ids.horse!}`;
    expect(row).toEqual({ price: '8000.00', notes: 'Gentle giant' });
    const compensations = await server.db.sql`select count(*)::int as n from doc_updates where user_id is null and seq > 1`;
    expect(compensations[0]?.n).toBeGreaterThan(0);
  });

  it('keeps a never-valid entity in the document, out of the projection, listed as a problem until fixed', async () => {
    const a = await device();
    const id = newId();
    a.doc.transact(() => writeEntity(a.doc, 'horses', id, { name: 'Nameless breed', breedId: null, colorId: ids.color!, genderId: ids.gender! }));
    await expect.poll(async () => (await server.db.sql`select problem from entity_problems where entity_id = ${id}`)[0]?.problem)
      .toBe('breedId: Breed is required');
    expect(await server.db.sql`select id from horses where id = ${id}`).toEqual([]);
    expect(getEntity(a.doc, 'horses', id)?.name).toBe('Nameless breed');

    a.doc.transact(() => collectionMap(a.doc, 'horses').get(id)?.set('breedId', ids.breed!));
    await expect.poll(async () => (await server.db.sql`select name from horses where id = ${id}`)[0]?.name).toBe('Nameless breed');
    expect(await server.db.sql`select * from entity_problems where entity_id = ${id}`).toEqual([]);
  });

  it('marks a reference to nothing as a problem', async () => {
    const a = await device();
    const id = newId();
    a.doc.transact(() => writeEntity(a.doc, 'horses', id, { name: 'Stray', breedId: newId(), colorId: ids.color!, genderId: ids.gender! }));
    await expect.poll(async () => (await server.db.sql`select problem from entity_problems where entity_id = ${id}`)[0]?.problem)
      .toBe('breedId: no such entity in breeds');
  });

  it('restores a deleted entity that others still refer to', async () => {
    const a = await device();
    const b = await device();
    a.doc.transact(() => deleteEntity(a.doc, 'breeds', ids.breed!));
    await expect.poll(() => getEntity(a.doc, 'breeds', ids.breed!)?.name).toBe('Shire');
    await expect.poll(() => getEntity(b.doc, 'breeds', ids.breed!)?.name).toBe('Shire');
    expect((await server.db.sql`select name from breeds where id = ${ids.breed!}`)[0]?.name).toBe('Shire');
  });

  it('survives hostile synced data: NUL bytes, odd keys, wrong types', async () => {
    const a = await device();
    const closes: number[] = [];
    a.provider.on('connection-close', (event) => event && closes.push(event.code));
    const evil = newId();
    a.doc.transact(() => {
      writeEntity(a.doc, 'horses', 'not\u0000an-id', { name: 'x\u0000y' });
      writeEntity(a.doc, 'horses', evil, { name: 'Nul\u0000name', breedId: ids.breed!, colorId: ids.color!, genderId: ids.gender! });
      writeEntity(a.doc, 'breeds', newId(), { name: 42, isActive: 'yes' } as never);
    });
    const marker = newId();
    a.doc.transact(() => writeEntity(a.doc, 'colors', marker, { name: 'Still working', isActive: true }));
    await expect.poll(async () => (await server.db.sql`select name from colors where id = ${marker}`)[0]?.name).toBe('Still working');
    expect(closes).toEqual([]);
    expect(await server.db.sql`select id from horses where id = ${evil}`).toEqual([]);
    expect((await server.db.sql`select problem from entity_problems where entity_id = ${evil}`)[0]?.problem).toBe('name: Must not contain control characters');
  });

  it('lets an unreferenced entity be deleted', async () => {
    const colorId = await create('/api/colors', { name: 'Grulla' });
    const a = await device();
    await expect.poll(() => getEntity(a.doc, 'colors', colorId)?.name).toBe('Grulla');
    a.doc.transact(() => deleteEntity(a.doc, 'colors', colorId));
    await expect.poll(async () => (await server.db.sql`select id from colors where id = ${colorId}`).length).toBe(0);
    expect(getEntity(a.doc, 'colors', colorId)).toBeUndefined();
  });
});
