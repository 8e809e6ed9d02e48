import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { collectionMap, DOC_NAME, getEntity, newId, SYNC_CLOSE, SYNC_PATH, writeEntity } from '../../shared/index.ts';
import { createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import type { TestServer } from './support/server.ts';
import { startStaffRanch } from './support/staff-ranch.ts';
import { connectAckedDevice, whenSynced } from './support/sync-client.ts';
import { untilSaved } from './support/until-saved.ts';

const KiB = 1024;

/** The whole document as a brand-new device receives it in its first sync (sync step 2 for an empty state vector). */
function firstSync(url: string, cookie: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}${SYNC_PATH}/${DOC_NAME}`, { headers: { cookie } });
    socket.on('open', () => socket.send(Uint8Array.from([0, 0, 1, 0])));
    socket.on('message', (data: Buffer) => {
      if (data[0] !== 0 || data[1] !== 1) return;
      resolve(new Uint8Array(data));
      socket.close();
    });
    socket.on('error', reject);
  });
}

/** The update of sync step 2 (message type, step, then the update as a length-prefixed byte array). */
function updateOf(message: Uint8Array): Uint8Array {
  const decoder = { at: 2 };
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = message[decoder.at++]!;
    length += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) break;
  }
  return message.subarray(decoder.at, decoder.at + length);
}

const syncUpdate = (update: Uint8Array): Uint8Array => {
  const header: number[] = [0, 2];
  let length = update.byteLength;
  while (length >= 0x80) {
    header.push((length & 0x7f) | 0x80);
    length = Math.floor(length / 0x80);
  }
  header.push(length);
  return Uint8Array.from([...header, ...update]);
};

const random = (bytes: number) => randomBytes(bytes / 2).toString('hex');

/**
 * The kinds of N1 (docs/security.md): each from a fresh device holding the ranch, as a stock
 * client that was refused (4400) starts again.
 */
const HOSTILE: ((doc: Y.Doc, horseId: string) => void)[] = [
  (doc) => collectionMap(doc, 'buyers').set(random(KiB) as never, new Y.Map() as never),
  (doc) => doc.getMap(random(KiB)).set('a', 1),
  (doc, horseId) => (collectionMap(doc, 'horses').get(horseId) as Y.Map<unknown>).set(random(KiB), 'x'),
  (doc) => {
    for (let i = 0; i < 200; i++) collectionMap(doc, 'owners').set(`k${random(16)}` as never, new Y.Map() as never);
  },
  (doc, horseId) => {
    const horse = collectionMap(doc, 'horses').get(horseId) as Y.Map<unknown>;
    for (let i = 0; i < 200; i++) horse.set(`f${random(16)}`, i);
  },
];

/**
 * N1 (docs/security.md, docs/sync-rules.md "Refused before it is applied"): what a Staff socket
 * can make every new device download for good is bounded, and the sender is stopped.
 */
describe.each(databaseKinds())('[Y2] a Staff socket cannot grow the document for good (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;
  let lookups: { breed: string; color: string; gender: string };

  beforeAll(async () => {
    ({ server, staff, lookups } = await startStaffRanch(kind));
  });
  afterAll(() => server.destroy());

  it('after 1,000 hostile updates the first sync has grown by less than 64 KiB, and the budget closed the sender', async () => {
    const horseId = await createdId(staff, '/api/horses', {
      name: 'Trigger',
      breedId: lookups.breed,
      colorId: lookups.color,
      genderId: lookups.gender,
    });
    const before = await firstSync(server.url, staff.cookie);
    const base = new Y.Doc();
    Y.applyUpdate(base, updateOf(before));
    const baseState = Y.encodeStateAsUpdate(base);
    const baseVector = Y.encodeStateVector(base);

    const closes: string[] = [];
    let sent = 0;
    while (sent < 1000) {
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}${SYNC_PATH}/${DOC_NAME}`, { headers: { cookie: staff.cookie } });
      const closed = new Promise<void>((resolve) => socket.on('close', (_code, reason) => resolve(void closes.push(reason.toString()))));
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      for (let i = 0; i < 10 && sent < 1000 && socket.readyState === WebSocket.OPEN; i++) {
        const device = new Y.Doc();
        Y.applyUpdate(device, baseState);
        HOSTILE[sent % HOSTILE.length]!(device, horseId);
        socket.send(syncUpdate(Y.encodeStateAsUpdate(device, baseVector)));
        sent++;
      }
      await closed;
    }

    expect(closes.filter((reason) => reason.startsWith('Update refused: Outside the document layout')).length).toBeGreaterThan(0);
    expect(closes).toContain(SYNC_CLOSE.tooManyInvalidChanges.reason);
    const after = await firstSync(server.url, staff.cookie);
    console.info(`First sync: ${before.byteLength} bytes before ${sent} hostile updates, ${after.byteLength} after`);
    expect(after.byteLength - before.byteLength).toBeLessThan(64 * KiB);
    // And after a restart (the log and the snapshot hold no more than memory did).
    server = await server.restart();
    expect((await firstSync(server.url, staff.cookie)).byteLength - before.byteLength).toBeLessThan(64 * KiB);
  });
});

describe.each(databaseKinds())('[Y2] honest edits from a stock y-websocket client are taken (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;
  let lookups: { breed: string; color: string; gender: string };

  beforeAll(async () => {
    ({ server, staff, lookups } = await startStaffRanch(kind));
  });
  afterAll(() => server.destroy());

  it('horses, suppliers, buyers and lookups: created, edited field by field, a new field, the device time, deleted', async () => {
    const horseId = await createdId(staff, '/api/horses', {
      name: 'Trigger',
      breedId: lookups.breed,
      colorId: lookups.color,
      genderId: lookups.gender,
    });
    const device = connectAckedDevice(server.url, staff.cookie);
    const closes: number[] = [];
    device.provider.on('connection-close', (event) => event && closes.push(event.code));
    await whenSynced(device);
    const ids = { owner: newId(), buyer: newId(), color: newId(), horse: newId(), gone: newId() };
    const now = () => new Date().toISOString();
    device.doc.transact(() => {
      writeEntity(device.doc, 'owners', ids.owner, { firstName: 'Ann', lastName: 'Lee', phone: null, email: null, createdAt: now() });
      writeEntity(device.doc, 'buyers', ids.buyer, { firstName: 'Bo', lastName: 'Ray', phone: '555', email: null, updatedAt: now() });
      writeEntity(device.doc, 'buyers', ids.gone, { firstName: 'Cy', lastName: 'Doe', phone: null, email: null });
      writeEntity(device.doc, 'colors', ids.color, { name: 'Dun', isActive: true });
    });
    await untilSaved(device);
    device.doc.transact(() => {
      // A record built as a Y.Map before it is put in place, as a stock client may.
      const horse = new Y.Map<unknown>();
      for (const [field, value] of Object.entries({
        id: ids.horse,
        name: 'Dusty',
        breedId: lookups.breed,
        colorId: ids.color,
        genderId: lookups.gender,
        ownerId: ids.owner,
      }))
        horse.set(field, value);
      collectionMap(device.doc, 'horses').set(ids.horse, horse as never);
      const trigger = collectionMap(device.doc, 'horses').get(horseId) as Y.Map<unknown>;
      trigger.set('notes', 'Shod today');
      trigger.set('priceUsd', '2500.00');
      trigger.set('updatedAt', now());
      collectionMap(device.doc, 'colors').get(ids.color)!.set('isActive', false);
      collectionMap(device.doc, 'buyers').delete(ids.gone);
    });
    await untilSaved(device);
    expect(closes).toEqual([]);
    expect(device.notices).toEqual([]);
    const rows = await server.db.sql`select name, notes, price_usd::text as price from horses order by name`;
    expect(rows).toEqual([
      { name: 'Dusty', notes: null, price: null },
      { name: 'Trigger', notes: 'Shod today', price: '2500.00' },
    ]);
    expect((await server.db.sql`select first_name from buyers`).map((row) => row.first_name)).toEqual(['Bo']);
    expect((await server.db.sql`select is_active from colors where id = ${ids.color}`)[0]?.is_active).toBe(false);
    expect(getEntity(device.doc, 'owners', ids.owner)?.firstName).toBe('Ann');
    device.destroy();
  });

  it('an update that builds on one the server never got waits: the server asks for what it lacks and takes both', async () => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}${SYNC_PATH}/${DOC_NAME}?ack=1`, {
      headers: { cookie: staff.cookie },
    });
    const received: Uint8Array[] = [];
    socket.on('message', (data: Buffer) => received.push(new Uint8Array(data)));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(Uint8Array.from([0, 0, 1, 0]));
    await expect.poll(() => received.some((m) => m[0] === 0 && m[1] === 1)).toBe(true);
    const device = new Y.Doc();
    Y.applyUpdate(device, updateOf(received.find((m) => m[0] === 0 && m[1] === 1)!));
    const id = newId();
    const start = Y.encodeStateVector(device);
    writeEntity(device, 'colors', id, { name: 'Grullo', isActive: true });
    const middle = Y.encodeStateVector(device);
    collectionMap(device, 'colors').get(id)!.set('name', 'Grulla');
    const first = Y.encodeStateAsUpdate(device, start);
    const second = Y.encodeStateAsUpdate(device, middle);
    expect(first.byteLength).toBeGreaterThan(0);
    // Only the second is sent: Yjs alone would keep it aside, pending, and send it to every new device.
    const asked = received.length;
    socket.send(syncUpdate(second));
    await expect.poll(() => received.slice(asked).some((m) => m[0] === 0 && m[1] === 0)).toBe(true);
    expect((await server.db.sql`select name from colors where id = ${id}`).length).toBe(0);
    const fresh = new Y.Doc();
    Y.applyUpdate(fresh, updateOf(await firstSync(server.url, staff.cookie)));
    expect(fresh.store.pendingStructs).toBeNull();
    const step1 = received.slice(asked).find((m) => m[0] === 0 && m[1] === 0)!;
    const serverVector = updateOf(Uint8Array.from([0, 1, ...step1.subarray(2)]));
    // The device answers as a stock client does: sync step 2, everything the server lacks.
    socket.send(Uint8Array.from([0, 1, ...syncUpdate(Y.encodeStateAsUpdate(device, serverVector)).subarray(2)]));
    await expect.poll(async () => (await server.db.sql`select name from colors where id = ${id}`)[0]?.name).toBe('Grulla');
    socket.close();
  });
});
