import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import type { TestServer } from './support/server.ts';
import { startStaffRanch } from './support/staff-ranch.ts';
import { connectAckedDevice, connectDevice, whenSynced, type Device } from './support/sync-client.ts';
import { untilSaved } from './support/until-saved.ts';
import {
  collectionMap,
  deleteEntity,
  getEntity,
  newId,
  RECORD_FIELDS,
  writeEntity,
  type Collection,
  type JsonValue,
} from '../../shared/index.ts';

type AckedDevice = ReturnType<typeof connectAckedDevice>;

describe.each(databaseKinds())('[Y6] synced changes that would leave the ranch invalid (%s)', (kind) => {
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
      priceUsd: '8000',
    });
  });
  /** A device told which of its changes are durable (MESSAGE_ACK). */
  async function ackedDevice(): Promise<AckedDevice> {
    const created = connectAckedDevice(server.url, staff.cookie);
    devices.push(created);
    await whenSynced(created);
    return created;
  }
  const row = async (collection: Collection, id: string) =>
    (await staff.request(`/api/${collection}`).then((r) => r.json())).find((entity: { id: string }) => entity.id === id);
  const problems = async (id: string) =>
    (await server.db.sql`select problem from entity_problems where entity_id = ${id}`).map((found) => found.problem);
  /** A horse, a buyer and a sale of it at 9000 with 1000 down, made through REST. */
  async function sale(): Promise<string> {
    const horseId = await create('/api/horses', {
      name: 'Sold',
      breedId: ids.breed,
      colorId: ids.color,
      genderId: ids.gender,
      priceUsd: '9000',
    });
    const buyerId = await create('/api/buyers', { firstName: 'Bea', lastName: 'Buyer' });
    return create('/api/sales', { horseId, buyerId, salePrice: '9000', downPayment: '1000', termsMonths: 6 });
  }

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

  it('[O7] removes a never-valid entity from every replica and tells the device that wrote it why', async () => {
    const a = await ackedDevice();
    const b = await device();
    const id = newId();
    a.doc.transact(() =>
      writeEntity(a.doc, 'horses', id, { name: 'Nameless breed', breedId: null, colorId: ids.color!, genderId: ids.gender! }),
    );
    await untilSaved(a);
    expect(getEntity(a.doc, 'horses', id)).toBeUndefined();
    expect(a.notices).toContainEqual({ collection: 'horses', id, action: 'removed', fields: {}, reason: 'breedId: Breed is required' });
    await expect.poll(() => b.provider.synced && collectionMap(b.doc, 'horses').has(id)).toBe(false);
    expect(await server.db.sql`select id from horses where id = ${id}`).toEqual([]);
    expect(await problems(id)).toEqual([]);
  });

  it('removes an entity that names what never existed', async () => {
    const a = await ackedDevice();
    const id = newId();
    a.doc.transact(() => writeEntity(a.doc, 'horses', id, { name: 'Stray', breedId: newId(), colorId: ids.color!, genderId: ids.gender! }));
    await untilSaved(a);
    expect(getEntity(a.doc, 'horses', id)).toBeUndefined();
    expect(a.notices).toContainEqual(expect.objectContaining({ id, action: 'removed', reason: 'breedId: no such entity in breeds' }));
  });

  it('[O9] keeps a horse made offline whose breed another device deleted meanwhile, and brings the breed back', async () => {
    const breedId = await create('/api/breeds', { name: 'Lipizzaner' });
    const a = await ackedDevice();
    const b = await ackedDevice();
    await expect.poll(() => getEntity(b.doc, 'breeds', breedId)?.name).toBe('Lipizzaner');
    b.provider.disconnect();
    const horseId = newId();
    b.doc.transact(() =>
      writeEntity(b.doc, 'horses', horseId, { name: 'Offline foal', breedId, colorId: ids.color!, genderId: ids.gender! }),
    );
    a.doc.transact(() => deleteEntity(a.doc, 'breeds', breedId));
    // A deletion adds no clock to the state vector, so it has no acknowledgement to wait for.
    await expect.poll(() => row('breeds', breedId)).toBeUndefined();
    b.provider.connect();
    await untilSaved(b);
    expect(await row('horses', horseId)).toMatchObject({ name: 'Offline foal', breedId });
    expect(await row('breeds', breedId)).toMatchObject({ name: 'Lipizzaner' });
    await expect.poll(() => getEntity(a.doc, 'breeds', breedId)?.name).toBe('Lipizzaner');
  });

  it('[O9] keeps a supplier given to a horse offline though the office deleted the supplier meanwhile: the supplier comes back', async () => {
    const ownerId = await create('/api/owners', { firstName: 'Late', lastName: 'Deleted' });
    const b = await ackedDevice();
    await expect.poll(() => getEntity(b.doc, 'owners', ownerId)?.firstName).toBe('Late');
    b.provider.disconnect();
    b.doc.transact(() => collectionMap(b.doc, 'horses').get(ids.horse!)?.set('ownerId', ownerId));
    expect((await staff.request(`/api/owners/${ownerId}`, { method: 'DELETE' })).status).toBe(204);
    expect(await row('owners', ownerId)).toBeUndefined();
    b.provider.connect();
    await untilSaved(b);
    expect(await row('horses', ids.horse!)).toMatchObject({ ownerId });
    expect(await row('owners', ownerId)).toMatchObject({ firstName: 'Late', lastName: 'Deleted' });
    expect(b.notices).toEqual([]);
    await staff.request(`/api/horses/${ids.horse!}`, {
      method: 'PUT',
      json: { ...(await row('horses', ids.horse!)), id: undefined, ownerId: null },
    });
  });

  it('[O9] restores a deleted entity that others still refer to', async () => {
    const a = await device();
    const b = await device();
    a.doc.transact(() => deleteEntity(a.doc, 'breeds', ids.breed!));
    await expect.poll(() => getEntity(a.doc, 'breeds', ids.breed!)?.name).toBe('Shire');
    await expect.poll(() => getEntity(b.doc, 'breeds', ids.breed!)?.name).toBe('Shire');
    expect((await server.db.sql`select name from breeds where id = ${ids.breed!}`)[0]?.name).toBe('Shire');
  });

  it('survives hostile synced data: NUL bytes, odd keys, wrong types', async () => {
    // A key the layout has no place for: the whole update is refused before it is applied (4400).
    const refused = await device();
    const refusedCloses: number[] = [];
    refused.provider.on('connection-close', (event) => event && refusedCloses.push(event.code));
    refused.doc.transact(() => writeEntity(refused.doc, 'horses', 'not\u0000an-id', { name: 'x\u0000y' }));
    await expect.poll(() => refusedCloses).toContain(4400);
    refused.provider.disconnect();

    // Values that break the rules under valid keys: put back, and the socket keeps working.
    const a = await device();
    const closes: number[] = [];
    a.provider.on('connection-close', (event) => event && closes.push(event.code));
    const evil = newId();
    const wrongTypes = newId();
    a.doc.transact(() => {
      writeEntity(a.doc, 'horses', evil, { name: 'Nul\u0000name', breedId: ids.breed!, colorId: ids.color!, genderId: ids.gender! });
      writeEntity(a.doc, 'breeds', wrongTypes, { name: 42, isActive: 'yes' } as never);
    });
    const marker = newId();
    a.doc.transact(() => writeEntity(a.doc, 'colors', marker, { name: 'Still working', isActive: true }));
    await expect.poll(async () => (await server.db.sql`select name from colors where id = ${marker}`)[0]?.name).toBe('Still working');
    expect(closes).toEqual([]);
    expect(await server.db.sql`select id from horses where id = ${evil}`).toEqual([]);
    await expect.poll(() => collectionMap(a.doc, 'horses').has(evil)).toBe(false);
    expect(collectionMap(a.doc, 'breeds').has(wrongTypes)).toBe(false);
    const fresh = await device();
    expect([...collectionMap(fresh.doc, 'horses').keys()].filter((key) => key.startsWith('not'))).toEqual([]);
  });

  it('lets an unreferenced entity be deleted', async () => {
    const colorId = await create('/api/colors', { name: 'Grulla' });
    const a = await device();
    await expect.poll(() => getEntity(a.doc, 'colors', colorId)?.name).toBe('Grulla');
    a.doc.transact(() => deleteEntity(a.doc, 'colors', colorId));
    await expect.poll(async () => (await server.db.sql`select id from colors where id = ${colorId}`).length).toBe(0);
    expect(getEntity(a.doc, 'colors', colorId)).toBeUndefined();
  });

  // Found by the property tests (convergence-properties.test.ts); each was a replay there.

  // Layout 3: a sale is a ledger entry, which no device holds in its document. A device of the
  // old layout that writes a recorded sale again, changed, has it taken in as a ledger entry:
  // the ledger keeps the sale as recorded, the document keeps none, and the device is told.
  /** The recorded sale's record (its fields of REST's row), with `changed`. */
  const saleChanged = async (saleId: string, changed: Record<string, JsonValue>) => {
    const recorded = await row('sales', saleId);
    return { ...Object.fromEntries(RECORD_FIELDS.sales.map((field) => [field, recorded[field]])), ...changed };
  };
  const removedNotice = (saleId: string, reason: string | RegExp) =>
    expect.objectContaining({
      collection: 'sales',
      id: saleId,
      action: 'removed',
      reason: typeof reason === 'string' ? reason : expect.stringMatching(reason),
    });

  it('[S3] keeps a sale as recorded when a device writes its price below the down payment, and tells the device', async () => {
    const saleId = await sale();
    const a = await ackedDevice();
    const b = await device();
    a.doc.transact(() => writeEntity(a.doc, 'sales', saleId, { salePrice: '0.99' }));
    await untilSaved(a);
    expect(getEntity(a.doc, 'sales', saleId)).toBeUndefined();
    expect(getEntity(b.doc, 'sales', saleId)).toBeUndefined();
    expect(await row('sales', saleId)).toMatchObject({ salePrice: '9000.00', downPayment: '1000.00' });
    expect(a.notices).toContainEqual(removedNotice(saleId, /./));
    expect(await problems(saleId)).toEqual([]);
  });

  it('[S11] two phones change a sale, one offline: a sale is not changed once recorded, so the ledger keeps it and both are told', async () => {
    const saleId = await sale();
    const a = await ackedDevice();
    const b = await ackedDevice();
    const fromA = await saleChanged(saleId, { downPayment: '5000.00' });
    const fromB = await saleChanged(saleId, { salePrice: '4000.00' });
    a.doc.transact(() => writeEntity(a.doc, 'sales', saleId, fromA));
    await untilSaved(a);
    // b has seen a's write and its removal (else the two writes of one key merge to one), then goes offline.
    const host = await server.registry.get();
    const lacks = () =>
      [...Y.decodeStateVector(Y.encodeStateVector(host.doc))].filter(([client, clock]) => Y.getState(b.doc.store, client) < clock);
    await expect.poll(lacks).toEqual([]);
    b.provider.disconnect();
    b.doc.transact(() => writeEntity(b.doc, 'sales', saleId, fromB));
    b.provider.connect();
    await untilSaved(b);
    await expect.poll(() => getEntity(b.doc, 'sales', saleId)).toBeUndefined();
    await expect.poll(() => getEntity(a.doc, 'sales', saleId)).toBeUndefined();
    expect(await row('sales', saleId)).toMatchObject({ salePrice: '9000.00', downPayment: '1000.00' });
    expect(a.notices).toContainEqual(removedNotice(saleId, 'A sale cannot be changed once recorded'));
    expect(b.notices).toContainEqual(removedNotice(saleId, 'A sale cannot be changed once recorded'));
    expect(await problems(saleId)).toEqual([]);
  });

  it('[S11] keeps every field of a recorded sale: a bad createdAt, a dangling buyer and valid terms alike', async () => {
    const saleId = await sale();
    const before = await row('sales', saleId);
    const a = await ackedDevice();
    a.doc.transact(() => writeEntity(a.doc, 'sales', saleId, { createdAt: 'yesterday', buyerId: newId(), termsMonths: 12 }));
    await untilSaved(a);
    expect(getEntity(a.doc, 'sales', saleId)).toBeUndefined();
    expect(await row('sales', saleId)).toMatchObject({ createdAt: before.createdAt, buyerId: before.buyerId, termsMonths: 6 });
    expect(a.notices).toContainEqual(removedNotice(saleId, /./));
    expect(await problems(saleId)).toEqual([]);
  });

  it('[S3] keeps a sale as recorded when a device writes a down payment above the price behind a bad APR', async () => {
    const saleId = await sale();
    const a = await ackedDevice();
    const changed = await saleChanged(saleId, { interestApr: -1, downPayment: '99999999' });
    a.doc.transact(() => writeEntity(a.doc, 'sales', saleId, changed));
    await untilSaved(a);
    expect(getEntity(a.doc, 'sales', saleId)).toBeUndefined();
    expect(await row('sales', saleId)).toMatchObject({ interestApr: null, downPayment: '1000.00' });
    expect(a.notices).toContainEqual(removedNotice(saleId, /APR/));
    expect(await problems(saleId)).toEqual([]);
  });

  it('lets a supplier go once its horse moved to the ranch (or went) in the same update', async () => {
    const [moved, gone] = [
      await create('/api/owners', { firstName: 'Moved', lastName: 'Away' }),
      await create('/api/owners', { firstName: 'Gone', lastName: 'Away' }),
    ];
    const horse = (ownerId: string) =>
      create('/api/horses', { name: 'Traded', breedId: ids.breed, colorId: ids.color, genderId: ids.gender, ownerId });
    const [movedHorse, goneHorse] = [await horse(moved), await horse(gone)];
    const a = await ackedDevice();
    a.provider.disconnect();
    a.doc.transact(() => collectionMap(a.doc, 'horses').get(movedHorse)?.set('ownerId', null));
    a.doc.transact(() => deleteEntity(a.doc, 'owners', moved));
    a.doc.transact(() => deleteEntity(a.doc, 'horses', goneHorse));
    a.doc.transact(() => deleteEntity(a.doc, 'owners', gone));
    a.provider.connect();
    await untilSaved(a);
    expect([getEntity(a.doc, 'owners', moved), getEntity(a.doc, 'owners', gone), getEntity(a.doc, 'horses', goneHorse)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(await row('horses', movedHorse)).toMatchObject({ ownerId: null });
    expect([await row('owners', moved), await row('owners', gone), await row('horses', goneHorse)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('restores a status deleted in the batch that gave a horse that status', async () => {
    const statusId = await create('/api/statuses', { name: 'For sale' });
    const horseId = await create('/api/horses', { name: 'Listed', breedId: ids.breed, colorId: ids.color, genderId: ids.gender });
    const b = await device();
    await expect.poll(() => getEntity(b.doc, 'statuses', statusId)?.name).toBe('For sale');
    // Two devices' updates committed together (group commit): both are queued in one tick.
    const host = await server.registry.get();
    const userId = ((await staff.request('/api/auth/user').then((r) => r.json())) as { id: string }).id;
    await Promise.all([
      host.commit((doc) => collectionMap(doc, 'horses').get(horseId)?.set('statusId', statusId), { kind: 'rest', userId }),
      host.commit((doc) => deleteEntity(doc, 'statuses', statusId), { kind: 'rest', userId }),
    ]);
    expect(getEntity(host.doc, 'statuses', statusId)?.name).toBe('For sale');
    expect(getEntity(host.doc, 'horses', horseId)?.statusId).toBe(statusId);
    expect(await row('statuses', statusId)).toMatchObject({ name: 'For sale' });
    expect(await row('horses', horseId)).toMatchObject({ statusId });
    expect(await problems(horseId)).toEqual([]);
    await expect.poll(() => getEntity(b.doc, 'statuses', statusId)?.name).toBe('For sale');
  });

  it('compares a supplier deleted and written again, invalid, in one batch with its last valid state', async () => {
    const ownerId = await create('/api/owners', { firstName: 'Otto', lastName: 'Supplier' });
    const host = await server.registry.get();
    const userId = ((await staff.request('/api/auth/user').then((r) => r.json())) as { id: string }).id;
    // Found by the property tests: two updates of one raw device, committed together.
    await Promise.all([
      host.commit((doc) => deleteEntity(doc, 'owners', ownerId), { kind: 'rest', userId }),
      host.commit(
        (doc) =>
          writeEntity(doc, 'owners', ownerId, {
            firstName: 'Star',
            lastName: '',
            phone: null,
            email: null,
            createdAt: '2020-01-01T00:00:00.000Z',
          }),
        { kind: 'rest', userId },
      ),
    ]);
    expect(getEntity(host.doc, 'owners', ownerId)).toMatchObject({ firstName: 'Star', lastName: 'Supplier' });
    expect(await row('owners', ownerId)).toMatchObject({ firstName: 'Star', lastName: 'Supplier' });
    expect(await problems(ownerId)).toEqual([]);
  });

  it('restores a status deleted in the update that gave a horse that status', async () => {
    const statusId = await create('/api/statuses', { name: 'Resting' });
    const horseId = await create('/api/horses', { name: 'Tired', breedId: ids.breed, colorId: ids.color, genderId: ids.gender });
    const a = await ackedDevice();
    a.doc.transact(() => {
      collectionMap(a.doc, 'horses').get(horseId)?.set('statusId', statusId);
      deleteEntity(a.doc, 'statuses', statusId);
    });
    await untilSaved(a);
    expect(getEntity(a.doc, 'statuses', statusId)?.name).toBe('Resting');
    expect(getEntity(a.doc, 'horses', horseId)?.statusId).toBe(statusId);
    expect(await row('horses', horseId)).toMatchObject({ statusId });
  });

  it('keeps a horse whose gender comes in the same update, made before it', async () => {
    const genderId = newId();
    const horseId = newId();
    const a = await ackedDevice();
    a.provider.disconnect();
    a.doc.transact(() => writeEntity(a.doc, 'horses', horseId, { name: 'Early', breedId: ids.breed!, colorId: ids.color!, genderId }));
    a.doc.transact(() => writeEntity(a.doc, 'genders', genderId, { name: 'Filly', isActive: true }));
    a.provider.connect();
    await untilSaved(a);
    expect(await row('horses', horseId)).toMatchObject({ name: 'Early', genderId });
    expect(a.notices).toEqual([]);
  });
});
