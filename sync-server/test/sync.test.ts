import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { connectDevice, connectionOutcome, whenSynced, type Device } from './support/sync-client.ts';
import {
  CloseCode,
  collectionMap,
  DOC_NAME,
  getEntity,
  MESSAGE_ACCESS,
  MESSAGE_ACK,
  newId,
  SYNC_PATH,
  SYNC_USER_PARAM,
  writeEntity,
} from '../../shared/index.ts';

describe.each(databaseKinds())('the ranch document over y-websocket (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let staff: ApiClient;
  const devices: Device[] = [];

  function device(cookie: string, params?: Record<string, string>): Device {
    const created = connectDevice(server.url, cookie, params ? { params } : {});
    devices.push(created);
    return created;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    staff = await signInAs(server.url, admin, 'Staff');
  });
  afterEach(() => {
    devices.splice(0).forEach((d) => d.destroy());
  });
  afterAll(() => server.destroy());

  it('[Y1] converges two stock clients through the server and logs the update in Postgres', async () => {
    const a = device(staff.cookie);
    const b = device(admin.cookie);
    await Promise.all([whenSynced(a), whenSynced(b)]);

    const breedId = newId();
    a.doc.transact(() => writeEntity(a.doc, 'breeds', breedId, { name: 'Appaloosa', isActive: true }));
    await expect.poll(() => getEntity(b.doc, 'breeds', breedId)).toEqual({ id: breedId, name: 'Appaloosa', isActive: true });

    const rows = await server.db.sql`select name, is_active from breeds where id = ${breedId}`;
    expect(rows).toEqual([{ name: 'Appaloosa', is_active: true }]);
    const [log] = await server.db.sql`select count(*)::int as n from doc_updates where doc = 'ranch' and user_id is not null`;
    expect(log?.n).toBeGreaterThan(0);

    // Concurrent edits of different fields of one entity both survive.
    collectionMap(a.doc, 'breeds').get(breedId)?.set('name', 'Appaloosa Sport');
    collectionMap(b.doc, 'breeds').get(breedId)?.set('isActive', false);
    const expected = { id: breedId, name: 'Appaloosa Sport', isActive: false };
    await expect.poll(() => getEntity(a.doc, 'breeds', breedId)).toEqual(expected);
    await expect.poll(() => getEntity(b.doc, 'breeds', breedId)).toEqual(expected);
    await expect
      .poll(async () => (await server.db.sql`select name, is_active from breeds where id = ${breedId}`)[0])
      .toEqual({ name: 'Appaloosa Sport', is_active: false });
  });

  it('[X5] sends REST writes to connected devices', async () => {
    const a = device(staff.cookie);
    await whenSynced(a);
    const response = await staff.request('/api/colors', { method: 'POST', json: { name: 'Palomino' } });
    const { id } = await response.json();
    await expect.poll(() => getEntity(a.doc, 'colors', id)?.name).toBe('Palomino');
  });

  it('[Y9] acknowledges with the server state vector only after the update is durable', async () => {
    const a = device(staff.cookie, { ack: '1' });
    const acks: Uint8Array[] = [];
    a.provider.messageHandlers[MESSAGE_ACK] = (_encoder, decoder) => {
      acks.push(decoding.readVarUint8Array(decoder));
    };
    a.provider.messageHandlers[MESSAGE_ACCESS] = () => {};
    await whenSynced(a);
    const genderId = newId();
    a.doc.transact(() => writeEntity(a.doc, 'genders', genderId, { name: 'Gelding', isActive: true }));
    const localClock = Y.decodeStateVector(Y.encodeStateVector(a.doc)).get(a.doc.clientID);
    expect(localClock).toBeGreaterThan(0);
    await expect.poll(() => acks.some((sv) => Y.decodeStateVector(sv).get(a.doc.clientID) === localClock)).toBe(true);
    const [row] = await server.db.sql`select name from genders where id = ${genderId}`;
    expect(row?.name).toBe('Gelding');
  });

  it('[Y7] drops a Viewer’s updates: never stored, never seen by others', async () => {
    const viewer = await signInAs(server.url, admin, 'Viewer');
    const v = device(viewer.cookie);
    const other = device(staff.cookie);
    await Promise.all([whenSynced(v), whenSynced(other)]);
    const statusId = newId();
    v.doc.transact(() => writeEntity(v.doc, 'statuses', statusId, { name: 'Sneaky', isActive: true }));
    // A later write from a writer is seen, proving the viewer's had its chance to arrive.
    const marker = newId();
    other.doc.transact(() => writeEntity(other.doc, 'statuses', marker, { name: 'Marker', isActive: true }));
    await expect.poll(async () => (await server.db.sql`select id from statuses where id = ${marker}`).length).toBe(1);
    const third = device(staff.cookie);
    await whenSynced(third);
    expect(getEntity(third.doc, 'statuses', marker)?.name).toBe('Marker');
    expect(getEntity(third.doc, 'statuses', statusId)).toBeUndefined();
    expect(getEntity(other.doc, 'statuses', statusId)).toBeUndefined();
    expect(await server.db.sql`select id from statuses where id = ${statusId}`).toEqual([]);
  });

  it('[Y8] closes sockets without a session, from a foreign Origin or for an unknown document before sending anything', async () => {
    const outcome = (headers: Record<string, string>, path?: string) => connectionOutcome(server.url, headers, path);
    expect(await outcome({})).toEqual({ code: CloseCode.Unauthorized, messages: 0 });
    expect(await outcome({ cookie: 'ranch_session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' })).toEqual({ code: 4401, messages: 0 });
    expect(await outcome({ cookie: staff.cookie, origin: 'https://evil.example' })).toEqual({ code: CloseCode.Forbidden, messages: 0 });
    expect(await outcome({ cookie: staff.cookie }, '/api/sync/other')).toEqual({ code: CloseCode.NotFound, messages: 0 });
    const accepted = await outcome({ cookie: staff.cookie, origin: server.url });
    expect(accepted.code).toBe('open');
    expect(accepted.messages).toBeGreaterThan(0);
    const plain = await staff.request('/api/sync/ranch');
    expect(plain.status).toBe(426);
  });

  it('[A12] [Y8] closes a socket that names another user as the sender of its changes, before taking in anything', async () => {
    const path = (userId: string) => `${SYNC_PATH}/${DOC_NAME}?${SYNC_USER_PARAM}=${encodeURIComponent(userId)}`;
    const staffUser = (await (await staff.request('/api/auth/user')).json()) as { id: string };
    const adminUser = (await (await admin.request('/api/auth/user')).json()) as { id: string };
    expect(await connectionOutcome(server.url, { cookie: staff.cookie, origin: server.url }, path(adminUser.id))).toEqual({
      code: CloseCode.Unauthorized,
      messages: 0,
    });
    const own = await connectionOutcome(server.url, { cookie: staff.cookie, origin: server.url }, path(staffUser.id));
    expect(own.code).toBe('open');
    // A device with another user's changes that connects anyway has its update refused with the socket.
    const holder = device(staff.cookie, { [SYNC_USER_PARAM]: adminUser.id });
    const closes: number[] = [];
    holder.provider.on('connection-close', (event) => event && closes.push(event.code));
    const breedId = newId();
    holder.doc.transact(() => writeEntity(holder.doc, 'breeds', breedId, { name: 'Not Mine', isActive: true }));
    await expect.poll(() => closes[0]).toBe(CloseCode.Unauthorized);
    expect(await server.db.sql`select id from breeds where id = ${breedId}`).toEqual([]);
  });

  it('[Y7] tells a Viewer it is read-only and a Staff member it may write', async () => {
    const viewer = await signInAs(server.url, admin, 'Viewer');
    for (const [cookie, readOnly] of [
      [viewer.cookie, 1],
      [staff.cookie, 0],
    ] as const) {
      const d = device(cookie, { ack: '1' });
      const access: number[] = [];
      d.provider.messageHandlers[MESSAGE_ACCESS] = (_encoder, decoder) => {
        access.push(decoding.readVarUint(decoder));
      };
      await expect.poll(() => access).toEqual([readOnly]);
    }
  });

  it('[U4] applies a role change to an open connection at once', async () => {
    const rider = await signInAs(server.url, admin, 'Staff');
    const riderId = (await (await rider.request('/api/auth/user')).json()).id as string;
    const d = device(rider.cookie, { ack: '1' });
    const access: number[] = [];
    d.provider.messageHandlers[MESSAGE_ACCESS] = (_encoder, decoder) => {
      access.push(decoding.readVarUint(decoder));
    };
    d.provider.messageHandlers[MESSAGE_ACK] = () => {};
    await whenSynced(d);
    const demote = await admin.request(`/api/users/${riderId}/role`, { method: 'PUT', json: { role: 'Viewer' } });
    expect(demote.status).toBe(200);
    await expect.poll(() => access).toEqual([0, 1]);

    const dropped = newId();
    d.doc.transact(() => writeEntity(d.doc, 'breeds', dropped, { name: 'After demotion', isActive: true }));
    await admin.request(`/api/users/${riderId}/role`, { method: 'PUT', json: { role: 'Staff' } });
    await expect.poll(() => access).toEqual([0, 1, 0]);
    const kept = newId();
    d.doc.transact(() => writeEntity(d.doc, 'breeds', kept, { name: 'After promotion', isActive: true }));
    await expect.poll(async () => (await server.db.sql`select name from breeds where id = ${kept}`)[0]?.name).toBe('After promotion');
    // What was written while read-only was never applied; once writes are allowed again the
    // server asks the device for all it lacks, so the device's history has no gap.
    expect((await server.db.sql`select name from breeds where id = ${dropped}`)[0]?.name).toBe('After demotion');
  });

  it('persists one update too large for a single statement (6,000 horses from a device back online)', async () => {
    const a = device(staff.cookie, { ack: '1' });
    a.provider.messageHandlers[MESSAGE_ACK] = () => {};
    a.provider.messageHandlers[MESSAGE_ACCESS] = () => {};
    await whenSynced(a);
    const ids = { breed: newId(), color: newId(), gender: newId() };
    a.doc.transact(() => {
      writeEntity(a.doc, 'breeds', ids.breed, { name: 'Bulk', isActive: true });
      writeEntity(a.doc, 'colors', ids.color, { name: 'Bulk', isActive: true });
      writeEntity(a.doc, 'genders', ids.gender, { name: 'Bulk', isActive: true });
      for (let index = 0; index < 6000; index++) {
        writeEntity(a.doc, 'horses', newId(), {
          name: `Herd ${index}`,
          breedId: ids.breed,
          colorId: ids.color,
          genderId: ids.gender,
          statusId: null,
          ownerId: null,
          birthdate: null,
          ageYears: 3,
          priceUsd: '1000.00',
          photoUrl: null,
          notes: null,
        });
      }
    });
    await expect
      .poll(async () => (await server.db.sql`select count(*)::int as n from horses where breed_id = ${ids.breed}`)[0]?.n, {
        timeout: 30_000,
      })
      .toBe(6000);
  });

  it('[A6] [Y8] closes the sockets of a session that signs out (4401)', async () => {
    const rider = await signInAs(server.url, admin, 'Staff');
    const d = device(rider.cookie);
    await whenSynced(d);
    const closes: number[] = [];
    d.provider.on('connection-close', (event) => event && closes.push(event.code));
    expect((await rider.request('/api/logout', { method: 'POST' })).status).toBe(204);
    await expect.poll(() => closes).toEqual([CloseCode.Unauthorized]);
    const after = newId();
    d.doc.transact(() => writeEntity(d.doc, 'breeds', after, { name: 'After sign-out', isActive: true }));
    expect(d.provider.wsconnected).toBe(false);
    expect(await server.db.sql`select id from breeds where id = ${after}`).toEqual([]);
    // Nor can the ended session open a socket again (a reconnect is refused before any data).
    expect(await connectionOutcome(server.url, { cookie: rider.cookie, origin: server.url })).toEqual({
      code: CloseCode.Unauthorized,
      messages: 0,
    });
  });

  it('[Y9] loads the document from Postgres after a restart', async () => {
    const a = device(staff.cookie);
    await whenSynced(a);
    const horseBreed = newId();
    a.doc.transact(() => writeEntity(a.doc, 'breeds', horseBreed, { name: 'Friesian', isActive: true }));
    await expect.poll(async () => (await server.db.sql`select id from breeds where id = ${horseBreed}`).length).toBe(1);
    devices.splice(0).forEach((d) => d.destroy());

    server = await server.restart();
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    const fresh = device(admin.cookie);
    await whenSynced(fresh);
    expect(getEntity(fresh.doc, 'breeds', horseBreed)?.name).toBe('Friesian');
  });
});
