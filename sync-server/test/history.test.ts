import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createdId, signIn, signInAs, type ApiClient } from './support/client.ts';
import { cleanupsAfterEach } from './support/cleanups.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, type TestServer } from './support/server.ts';
import { startStaffRanch } from './support/staff-ranch.ts';
import { connectAckedDevice, whenSynced } from './support/sync-client.ts';
import { untilSaved } from './support/until-saved.ts';
import { collectionMap, newId, writeEntity, type EntityFields, type HistoryChange, type HistoryPage } from '../../shared/index.ts';

describe.each(databaseKinds())('[T1] [T2] the change history (%s)', (kind) => {
  const { track } = cleanupsAfterEach();
  let server: TestServer;
  let staff: ApiClient;
  let admin: ApiClient;
  let viewer: ApiClient;
  let lookups: { breed: string; color: string; gender: string };

  const horseBody = (fields: Record<string, unknown> = {}) => ({
    name: 'Dusty',
    breedId: lookups.breed,
    colorId: lookups.color,
    genderId: lookups.gender,
    priceUsd: '1500.00',
    ...fields,
  });
  const history = async (as: ApiClient, path: string): Promise<HistoryPage> => {
    const response = await as.request(`/api/history/${path}`);
    expect(response.status).toBe(200);
    return (await response.json()) as HistoryPage;
  };
  const fieldChanges = (page: HistoryPage, field: string) =>
    page.changes.filter((change) => change.field === field).map(({ kind, before, after, userName }) => ({ kind, before, after, userName }));
  /** A device of `as` that writes one horse's fields on the socket and waits until the server has them. */
  const writeOnSocket = async (as: ApiClient, id: string, fields: EntityFields) => {
    const device = track(connectAckedDevice(server.url, as.cookie));
    await whenSynced(device);
    await expect.poll(() => collectionMap(device.doc, 'horses').has(id)).toBe(true);
    device.doc.transact(() => writeEntity(device.doc, 'horses', id, fields));
    await untilSaved(device);
  };

  beforeAll(async () => {
    // Compacts after every 3 logged updates, so the tests below run across several compactions.
    ({ server, staff, lookups } = await startStaffRanch(kind, { compactEvery: 3 }));
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    viewer = await signInAs(server.url, admin, 'Viewer');
  });
  afterAll(() => server.destroy());

  it('[T1] a REST change and a socket change are each recorded with who made them and the value before and after; Viewers read it', async () => {
    const id = await createdId(staff, '/api/horses', horseBody());
    expect((await staff.request(`/api/horses/${id}`, { method: 'PUT', json: horseBody({ priceUsd: '1800.00' }) })).status).toBe(200);
    await writeOnSocket(admin, id, { priceUsd: '2100.00' });

    const page = await history(viewer, `horses/${id}`);
    expect(fieldChanges(page, 'priceUsd')).toEqual([
      // The bootstrap Admin has no names: named by their role, never their e-mail, to a Viewer.
      { kind: 'update', before: '1800.00', after: '2100.00', userName: 'Admin' },
      { kind: 'update', before: '1500.00', after: '1800.00', userName: 'Staff Tester' },
      { kind: 'create', before: null, after: '1500.00', userName: 'Staff Tester' },
    ]);
    // A create lists the fields it set, nothing it left empty; an update only what changed.
    expect(
      page.changes
        .filter((change) => change.kind === 'create')
        .map((change) => change.field)
        .sort(),
    ).toEqual(['breedId', 'colorId', 'genderId', 'name', 'priceUsd'].sort());
    expect(page.changes.filter((change) => change.kind === 'update')).toHaveLength(2);
    const [latest] = page.changes as [HistoryChange];
    expect(Date.now() - Date.parse(latest.serverTime)).toBeLessThan(60_000);
    expect(latest.deviceTime).toBeNull();
    expect(Number(latest.id)).toBeGreaterThan(Number(page.changes[1]?.id));
  });

  it("[T5] the device's time is kept only as its claim: a false one is shown as the device's, a malformed one is removed; a REST change has none", async () => {
    const id = await createdId(staff, '/api/horses', horseBody({ name: 'Clock' }));
    const device = track(connectAckedDevice(server.url, admin.cookie));
    await whenSynced(device);
    await expect.poll(() => collectionMap(device.doc, 'horses').has(id)).toBe(true);
    device.doc.transact(() => writeEntity(device.doc, 'horses', id, { priceUsd: '1600.00', updatedAt: '2001-01-01T00:00:00.000Z' }));
    await untilSaved(device);
    device.doc.transact(() => writeEntity(device.doc, 'horses', id, { priceUsd: '1700.00', updatedAt: 'yesterday, honest' }));
    await untilSaved(device);
    await expect.poll(() => (collectionMap(device.doc, 'horses').get(id) as { has(field: string): boolean }).has('updatedAt')).toBe(false);
    expect(
      (await staff.request(`/api/horses/${id}`, { method: 'PUT', json: horseBody({ name: 'Clock', priceUsd: '1800.00' }) })).status,
    ).toBe(200);

    const prices = (await history(viewer, `horses/${id}`)).changes.filter((change) => change.field === 'priceUsd');
    expect(prices.map(({ after, deviceTime }) => ({ after, deviceTime }))).toEqual([
      { after: '1800.00', deviceTime: null },
      { after: '1700.00', deviceTime: null },
      { after: '1600.00', deviceTime: '2001-01-01T00:00:00.000Z' },
      { after: '1500.00', deviceTime: null },
    ]);
    // The server's time is the truth: now, whatever the device claimed.
    expect(Date.now() - Date.parse(prices[2]?.serverTime ?? '')).toBeLessThan(60_000);
    expect((await history(viewer, `horses/${id}`)).changes.some((change) => change.field === 'updatedAt')).toBe(false);
  });

  it('[T5] a record a device stamped is answered over REST without the stamp', async () => {
    const id = await createdId(staff, '/api/horses', horseBody({ name: 'Stamped' }));
    await writeOnSocket(admin, id, { notes: 'Seen by the vet', updatedAt: '2026-01-01T00:00:00.000Z' });
    const response = await staff.request(`/api/horses/${id}`, {
      method: 'PUT',
      json: horseBody({ name: 'Stamped', notes: 'Seen by the vet' }),
    });
    expect(await response.json()).not.toHaveProperty('updatedAt');
  });

  it('[T1] a change the server puts back records nothing', async () => {
    const id = await createdId(staff, '/api/horses', horseBody({ name: 'Steady' }));
    const before = await history(viewer, `horses/${id}`);
    const device = track(connectAckedDevice(server.url, admin.cookie));
    await whenSynced(device);
    await expect.poll(() => collectionMap(device.doc, 'horses').has(id)).toBe(true);
    device.doc.transact(() => writeEntity(device.doc, 'horses', id, { priceUsd: 'a lot' }));
    await untilSaved(device);
    await expect
      .poll(() => (collectionMap(device.doc, 'horses').get(id) as { get(field: string): unknown }).get('priceUsd'))
      .toBe('1500.00');
    expect(await history(viewer, `horses/${id}`)).toEqual(before);
  });

  it('[T1] a delete is recorded with the values it removed; a write that changes nothing records nothing', async () => {
    const id = await createdId(staff, '/api/horses', horseBody({ name: 'Star' }));
    expect((await staff.request(`/api/horses/${id}`, { method: 'PUT', json: horseBody({ name: 'Star' }) })).status).toBe(200);
    expect((await staff.request(`/api/horses/${id}`, { method: 'DELETE' })).status).toBe(204);
    const page = await history(staff, `horses/${id}`);
    expect(page.changes.filter((change) => change.kind === 'update')).toEqual([]);
    expect(fieldChanges(page, 'name')).toEqual([
      { kind: 'delete', before: 'Star', after: null, userName: 'Staff Tester' },
      { kind: 'create', before: null, after: 'Star', userName: 'Staff Tester' },
    ]);
  });

  it('[T1] the history of a record survives compaction of the update log and a server restart', async () => {
    const id = await createdId(staff, '/api/horses', horseBody({ name: 'Goliath' }));
    for (const price of ['1600.00', '1700.00', '1800.00', '1900.00']) {
      await staff.request(`/api/horses/${id}`, { method: 'PUT', json: horseBody({ name: 'Goliath', priceUsd: price }) });
    }
    const before = await history(staff, `horses/${id}`);
    expect(fieldChanges(before, 'priceUsd')).toHaveLength(5);
    await expect
      .poll(async () => Number((await server.db.sql`select upto_seq::int as seq from doc_snapshots`)[0]?.seq ?? 0))
      .toBeGreaterThan(Number(before.changes.at(-1)?.seq));
    const [{ oldest } = { oldest: 0 }] = await server.db.sql<
      { oldest: number }[]
    >`select coalesce(min(seq), 0)::int as oldest from doc_updates`;
    expect(oldest === 0 || oldest > Number(before.changes.at(-1)?.seq)).toBe(true);

    server = await server.restart();
    // Sessions live in Postgres: the same cookies reach the restarted server.
    staff = client(server.url, staff.cookie);
    viewer = client(server.url, viewer.cookie);
    admin = client(server.url, admin.cookie);
    expect(await history(staff, `horses/${id}`)).toEqual(before);
  });

  it("[T2] a sale's history holds its payments, each with who recorded it", async () => {
    const horse = await createdId(staff, '/api/horses', horseBody({ name: 'Sold' }));
    const buyer = await createdId(staff, '/api/buyers', { firstName: 'Bea', lastName: 'Buyer', phone: '', email: '' });
    const sale = await createdId(staff, '/api/sales', {
      horseId: horse,
      buyerId: buyer,
      salePrice: '3000.00',
      downPayment: '0.00',
      termsMonths: 3,
    });
    const payment = await createdId(admin, '/api/payments', {
      saleId: sale,
      amount: '1000.00',
      date: '2026-02-15',
      method: 'Card',
      memo: 'first',
    });
    const page = await history(viewer, `sales/${sale}`);
    expect(
      page.changes
        .filter((change) => change.field === 'amount' || change.field === 'salePrice')
        .map(({ collection, entityId, after, userName }) => ({ collection, entityId, after, userName })),
    ).toEqual([
      { collection: 'payments', entityId: payment, after: '1000.00', userName: 'Admin' },
      { collection: 'sales', entityId: sale, after: '3000.00', userName: 'Staff Tester' },
    ]);
    expect((await history(viewer, `payments/${payment}`)).changes.every((change) => change.kind === 'create')).toBe(true);
  });

  it('[T2] the ranch-wide recent changes come newest first, in pages', async () => {
    const first = await history(viewer, 'recent?limit=2');
    expect(first.changes).toHaveLength(2);
    expect(first.nextBefore).toBe(first.changes[1]?.id);
    const second = await history(viewer, `recent?limit=2&before=${first.nextBefore}`);
    expect(Number(second.changes[0]?.id)).toBeLessThan(Number(first.changes[1]?.id));
    const all = await history(viewer, 'recent?limit=200');
    expect(all.changes.map((change) => change.id)).toEqual([...all.changes].sort((a, b) => Number(b.id) - Number(a.id)).map((c) => c.id));
  });

  it('[T2] bad parameters are a 400 with a message, an unknown collection or record a 404; history is only read', async () => {
    const horse = await createdId(staff, '/api/horses', horseBody({ name: 'Param' }));
    const answers = {
      'horses/not-an-id': [400, 'id: Must be a valid id'],
      [`mules/${horse}`]: [404, 'No such collection: mules'],
      [`horses/${newId()}`]: [404, 'No such record'],
      [`horses/${horse}?limit=0`]: [400, 'limit: Must be at least 1'],
      [`horses/${horse}?limit=201`]: [400, 'limit: Must be at most 200'],
      [`horses/${horse}?limit=many`]: [400, 'limit: Must be a number'],
      'recent?before=abc': [400, 'before: Must be the id of a change'],
      'recent?before=99999999999999999999999': [400, 'before: Must be the id of a change'],
    } as const;
    for (const [path, [status, message]] of Object.entries(answers)) {
      const response = await viewer.request(`/api/history/${path}`);
      expect({ path, status: response.status, message: (await response.json()).message }).toEqual({ path, status, message });
    }
    // A record that exists but whose changes predate the history has an empty one, not a 404.
    await server.db.sql`delete from change_history where entity_id = ${horse}`;
    expect((await history(viewer, `horses/${horse}`)).changes).toEqual([]);
    expect((await staff.request(`/api/history/horses/${horse}`, { method: 'POST', json: {} })).status).toBe(404);
  });
});
