import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deleteEntity, getEntity, newId } from '../../shared/index.ts';
import { client, createdHorse, createdId, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN } from './support/server.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';
import { connectAckedDevice, whenSynced, type Device } from './support/sync-client.ts';
import { startTwoInstances } from './support/two-instances.ts';
import { saleRecord } from './support/sale-record.ts';

const sale = (horseId: string, buyerId: string) => ({
  id: newId(),
  collection: 'sales',
  record: saleRecord({ horseId, buyerId, salePrice: '1000', createdAt: '2026-12-01T10:00:00.000Z' }),
});

async function pushSale(staff: ApiClient, horseId: string, buyerId: string): Promise<void> {
  const response = await staff.request('/api/ledger', { method: 'POST', json: { entries: [sale(horseId, buyerId)] } });
  expect(response.status).toBe(200);
  expect(((await response.json()) as { results: { outcome: string }[] }).results[0]?.outcome).toBe('recorded');
}

const ids = async (staff: ApiClient, path: string) => ((await (await staff.request(path)).json()) as { id: string }[]).map((row) => row.id);

/**
 * Issue 68 (S2): a horse or buyer a ledger sale names is kept as one a document sale names
 * (docs/sync-rules.md §7 "What a ledger sale keeps"): REST refuses its deletion, the socket
 * puts it back.
 */
describe.each(databaseKinds())('deleting what a ledger sale names (%s)', (kind) => {
  let ranch: StaffRanch;
  let staff: ApiClient;
  const devices: Device[] = [];

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    staff = ranch.staff;
  });
  afterEach(() => devices.splice(0).forEach((device) => device.destroy()));
  afterAll(() => ranch.server.destroy());

  let made = 0;
  const soldPair = async () => {
    const { breed: breedId, color: colorId, gender: genderId } = ranch.lookups;
    const horseId = await createdId(staff, '/api/horses', { name: `Named ${++made}`, breedId, colorId, genderId });
    const buyerId = await createdId(staff, '/api/buyers', { firstName: 'Named', lastName: `Buyer ${made}` });
    await pushSale(staff, horseId, buyerId);
    return { horseId, buyerId };
  };
  const remove = async (path: string) => {
    const response = await staff.request(path, { method: 'DELETE' });
    return { status: response.status, message: response.status === 204 ? null : ((await response.json()) as { message: string }).message };
  };

  it('refuses over REST (409) to delete a horse or buyer a ledger sale names, and deletes one no sale names', async () => {
    const { horseId, buyerId } = await soldPair();
    expect(await remove(`/api/horses/${horseId}`)).toEqual({ status: 409, message: 'This horse cannot be deleted: 1 sale refers to it' });
    expect(await remove(`/api/buyers/${buyerId}`)).toEqual({ status: 409, message: 'This buyer cannot be deleted: 1 sale refers to it' });
    expect(await ids(staff, '/api/horses')).toContain(horseId);
    expect(await ids(staff, '/api/buyers')).toContain(buyerId);

    const unsold = await createdId(staff, '/api/buyers', { firstName: 'Never', lastName: 'Bought' });
    expect(await remove(`/api/buyers/${unsold}`)).toEqual({ status: 204, message: null });
  });

  it('puts back a horse and a buyer a ledger sale names when a device deletes them, and tells it', async () => {
    const { horseId, buyerId } = await soldPair();
    const device = connectAckedDevice(ranch.server.url, staff.cookie);
    devices.push(device);
    await whenSynced(device);
    device.doc.transact(() => {
      deleteEntity(device.doc, 'horses', horseId);
      deleteEntity(device.doc, 'buyers', buyerId);
    });
    await expect.poll(() => getEntity(device.doc, 'horses', horseId)?.name).toBe(`Named ${made}`);
    await expect.poll(() => getEntity(device.doc, 'buyers', buyerId)?.firstName).toBe('Named');
    expect(device.notices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ collection: 'horses', id: horseId, action: 'restored', reason: 'In use: 1 record refers to it' }),
        expect.objectContaining({ collection: 'buyers', id: buyerId, action: 'restored', reason: 'In use: 1 record refers to it' }),
      ]),
    );
    expect(await ids(staff, '/api/horses')).toContain(horseId);
  });

  it('knows the ledger sales after a restart (the index is loaded when the document is)', async () => {
    const { horseId } = await soldPair();
    ranch.server = await ranch.server.restart();
    const admin = await signIn(ranch.server.url, ADMIN.email, ADMIN.password);
    const response = await admin.request(`/api/horses/${horseId}`, { method: 'DELETE' });
    expect(response.status).toBe(409);
  });
});

describe.runIf(process.env.DATABASE_URL)('deleting what a ledger sale names, across instances', () => {
  it('is refused on an instance that heard of the sale from another', async () => {
    const instances = await startTwoInstances('postgres');
    try {
      const staff = await signInAs(instances.one.url, instances.admin, 'Staff');
      const horseId = await createdHorse(staff, 'Far');
      const buyerId = await createdId(staff, '/api/buyers', { firstName: 'Far', lastName: 'Buyer' });
      const there = client(instances.two.url, staff.cookie);
      // The other instance loads its document (and the index) before the sale exists.
      expect((await there.request('/api/horses')).status).toBe(200);
      await pushSale(staff, horseId, buyerId);
      await expect.poll(async () => (await there.request(`/api/buyers/${buyerId}`, { method: 'DELETE' })).status).toBe(409);
    } finally {
      await instances.stop();
    }
  });
});
