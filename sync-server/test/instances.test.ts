import * as decoding from 'lib0/decoding';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode, getEntity, MESSAGE_ACCESS, MESSAGE_EPOCH, MESSAGE_ACK, newId, writeEntity } from '../../shared/index.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { client, createdId, signIn, signInAs, type ApiClient } from './support/client.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.ts';
import { rawGet } from './support/raw-get.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { connectAckedDevice, connectDevice, whenSynced, type Device } from './support/sync-client.ts';
import { untilSaved } from './support/until-saved.ts';

/** A device that ignores our acknowledgement and access messages but asks for them. */
function ackedDevice(url: string, cookie: string): Device & { access: number[] } {
  const device = connectDevice(url, cookie, { params: { ack: '1' } });
  const access: number[] = [];
  device.provider.messageHandlers[MESSAGE_ACK] = () => {};
  device.provider.messageHandlers[MESSAGE_EPOCH] = () => {}; // the epoch: one document here, never rebuilt
  device.provider.messageHandlers[MESSAGE_ACCESS] = (_encoder, decoder) => {
    access.push(decoding.readVarUint(decoder));
  };
  return Object.assign(device, { access });
}

/** Breed, color and gender ids for new horses (all three are required). */
async function lookups(as: ApiClient): Promise<{ breedId: string; colorId: string; genderId: string }> {
  const create = (path: string, name: string) => createdId(as, path, { name });
  return {
    breedId: await create('/api/breeds', 'Mustang'),
    colorId: await create('/api/colors', 'Bay'),
    genderId: await create('/api/genders', 'Mare'),
  };
}

describe.each(databaseKinds())('cached reads of one instance (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(kind);
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    staff = await signInAs(server.url, admin, 'Staff');
  });
  afterAll(() => server?.destroy());

  it('sends the horse list gzip-compressed to clients that accept it, and as it is to others', async () => {
    const refs = await lookups(staff);
    for (let index = 0; index < 20; index++) {
      const response = await staff.request('/api/horses', { method: 'POST', json: { name: `Wild ${index}`, ...refs, priceUsd: '900' } });
      expect(response.status).toBe(201);
    }
    const zipped = await rawGet(`${server.url}/api/horses`, { cookie: staff.cookie, 'accept-encoding': 'gzip, deflate' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('accept-encoding');
    const unzipped = JSON.parse(gunzipSync(zipped.body).toString('utf8'));
    expect(unzipped).toHaveLength(20);
    expect(zipped.body.byteLength).toBeLessThan(JSON.stringify(unzipped).length / 3);

    const plain = await fetch(`${server.url}/api/horses`, { headers: { cookie: staff.cookie, 'accept-encoding': 'gzip;q=0, identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.json()).toEqual(unzipped);
  });

  it('answers 304 while nothing changed, and the new list as soon as a device changed a horse', async () => {
    const first = await staff.request('/api/horses');
    const etag = first.headers.get('etag')!;
    const [horse] = (await first.json()) as { id: string; name: string }[];
    expect((await staff.request('/api/horses', { headers: { 'if-none-match': etag } })).status).toBe(304);

    const device = ackedDevice(server.url, staff.cookie);
    try {
      await whenSynced(device);
      device.doc.transact(() => writeEntity(device.doc, 'horses', horse!.id, { name: 'Renamed on a phone' }));
      await expect
        .poll(async () => {
          const response = await staff.request('/api/horses', { headers: { 'if-none-match': etag } });
          return response.status === 200
            ? ((await response.json()) as { id: string; name: string }[]).find((row) => row.id === horse!.id)?.name
            : response.status;
        })
        .toBe('Renamed on a phone');
    } finally {
      device.destroy();
    }
  });
});

// Instances share Postgres, never PGlite (one session), so these run where DATABASE_URL is set.
describe.each(databaseKinds().filter((kind) => kind === 'postgres'))('two server instances on one %s', (kind) => {
  let database: TestDatabase;
  let one: RunningServer;
  let two: RunningServer;
  let admin: ApiClient;
  let staff: ApiClient;
  const devices: Device[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const options = { database: database.options, port: 0, host: '127.0.0.1', admin: ADMIN };
    one = await startServer(options);
    two = await startServer(options);
    admin = await signIn(one.url, ADMIN.email, ADMIN.password);
    staff = await signInAs(one.url, admin, 'Staff');
  });
  afterAll(async () => {
    devices.forEach((device) => device.destroy());
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  function deviceOn(server: RunningServer, cookie: string) {
    const device = ackedDevice(server.url, cookie);
    devices.push(device);
    return device;
  }

  it('passes a change made through one instance to devices on the other', async () => {
    const a = deviceOn(one, staff.cookie);
    const b = deviceOn(two, staff.cookie);
    await Promise.all([whenSynced(a), whenSynced(b)]);
    const id = newId();
    a.doc.transact(() => writeEntity(a.doc, 'breeds', id, { name: 'Across instances', isActive: true }));
    await expect.poll(() => getEntity(b.doc, 'breeds', id)).toMatchObject({ name: 'Across instances', isActive: true });

    // And REST writes on the second reach devices of the first.
    const created = await client(two.url, staff.cookie).request('/api/colors', { method: 'POST', json: { name: 'Dun' } });
    const color = await created.json();
    await expect.poll(() => getEntity(a.doc, 'colors', color.id)).toMatchObject({ name: 'Dun', isActive: true });
  });

  it('[O6] keeps both fields when two instances edit one horse at once, in the documents and the projection', async () => {
    const created = await staff.request('/api/horses', {
      method: 'POST',
      json: { name: 'Shared Mare', ...(await lookups(staff)), priceUsd: '1000' },
    });
    expect(created.status).toBe(201);
    const horse = await created.json();
    const a = deviceOn(one, staff.cookie);
    const b = deviceOn(two, staff.cookie);
    await Promise.all([whenSynced(a), whenSynced(b)]);
    await expect.poll(() => getEntity(b.doc, 'horses', horse.id)?.name).toBe('Shared Mare');

    for (let round = 1; round <= 10; round++) {
      a.doc.transact(() => writeEntity(a.doc, 'horses', horse.id, { notes: `notes ${round}` }));
      b.doc.transact(() => writeEntity(b.doc, 'horses', horse.id, { priceUsd: `${1000 + round}.00` }));
    }
    const expected = { notes: 'notes 10', priceUsd: '1010.00' };
    await expect.poll(() => getEntity(a.doc, 'horses', horse.id)).toMatchObject(expected);
    await expect.poll(() => getEntity(b.doc, 'horses', horse.id)).toMatchObject(expected);
    for (const server of [one, two]) {
      await expect
        .poll(async () => {
          const list = (await (await client(server.url, staff.cookie).request('/api/horses')).json()) as { id: string }[];
          return list.find((row) => row.id === horse.id);
        })
        .toMatchObject(expected);
    }
    const [row] = await one.db.sql`select notes, price_usd::text as price from horses where id = ${horse.id}`;
    expect(row).toEqual({ notes: 'notes 10', price: '1010.00' });
  });

  it('[T6] a conflict is recorded once, by the instance that received the later write, and read on both', async () => {
    const horse = await createdId(staff, '/api/horses', { name: 'Two Offices', ...(await lookups(staff)), priceUsd: '1000' });
    const clientId = 200_000 + Math.floor(Math.random() * 1_000_000) * 2;
    const a = connectAckedDevice(one.url, staff.cookie, clientId);
    const b = connectAckedDevice(two.url, admin.cookie, clientId + 1);
    devices.push(a, b);
    await Promise.all([whenSynced(a), whenSynced(b)]);
    await expect
      .poll(() => [getEntity(a.doc, 'horses', horse)?.name, getEntity(b.doc, 'horses', horse)?.name])
      .toEqual(['Two Offices', 'Two Offices']);
    a.provider.disconnect();
    b.provider.disconnect();
    a.doc.transact(() => writeEntity(a.doc, 'horses', horse, { priceUsd: '1100.00' }));
    b.doc.transact(() => writeEntity(b.doc, 'horses', horse, { priceUsd: '1200.00' }));
    a.provider.connect();
    await untilSaved(a);
    // The second instance has taken in the first one's write before the other arrives.
    const watcher = deviceOn(two, staff.cookie);
    await expect.poll(() => getEntity(watcher.doc, 'horses', horse)?.priceUsd).toBe('1100.00');
    b.provider.connect();
    await untilSaved(b);
    for (const server of [one, two]) {
      const response = await client(server.url, staff.cookie).request(`/api/conflicts?collection=horses&id=${horse}`);
      expect(((await response.json()) as { conflicts: unknown[] }).conflicts).toMatchObject([
        {
          field: 'priceUsd',
          kept: { value: '1200.00', userName: 'Admin' },
          other: { value: '1100.00', userName: 'Staff Tester' },
        },
      ]);
    }
    expect((await one.db.sql`select count(*)::int as n from conflicts where entity_id = ${horse}`)[0]?.n).toBe(1);
  });

  it('[U4] [A6] applies a role change and a sign-out to sockets open on the other instance', async () => {
    const rider = await signInAs(one.url, admin, 'Staff');
    const riderId = (await (await rider.request('/api/auth/user')).json()).id as string;
    const device = deviceOn(two, rider.cookie);
    await whenSynced(device);
    expect((await admin.request(`/api/users/${riderId}/role`, { method: 'PUT', json: { role: 'Viewer' } })).status).toBe(200);
    await expect.poll(() => device.access).toEqual([0, 1]);

    const closes: number[] = [];
    device.provider.on('connection-close', (event) => {
      if (event) closes.push(event.code);
    });
    const signedOut = await fetch(`${one.url}/api/logout`, { method: 'POST', headers: { cookie: rider.cookie, origin: one.url } });
    expect(signedOut.status).toBe(204);
    await expect.poll(() => closes).toContain(CloseCode.Unauthorized);
  });
});
