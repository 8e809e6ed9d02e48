import { randomBytes } from 'node:crypto';
import * as encoding from 'lib0/encoding';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { connectAckedDevice, connectDevice, connectionOutcome, whenSynced, type Device } from './support/sync-client.ts';
import { CloseCode, collectionMap, DOC_NAME, newId, SYNC_PATH, writeEntity } from '../../shared/index.ts';
import { DEFAULT_SYNC_LIMITS } from '../src/sync/limits.ts';

const HORSES = 2000;
const MiB = 1024 * 1024;
// Small, so that a few MiB of fan-out pass it once the kernel's socket buffers are full.
const SEND_BUFFER = 1 * MiB;
const STEP1_EMPTY = Uint8Array.from([0, 0, 1, 0]); // sync, step 1, an empty state vector

type RawSocket = { socket: WebSocket; closed: Promise<number>; messages: Uint8Array[] };

/** A raw y-websocket connection that records what it receives; resolves once the server has spoken. */
async function openRaw(url: string, cookie: string): Promise<RawSocket> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}${SYNC_PATH}/${DOC_NAME}`, { headers: { cookie } });
  const messages: Uint8Array[] = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('message', (data: Buffer) => messages.push(new Uint8Array(data)));
  await new Promise<void>((resolve, reject) => {
    socket.once('message', () => resolve());
    socket.once('close', (code) => reject(new Error(`closed with ${code}`)));
    socket.once('error', reject);
  });
  return { socket, closed, messages };
}

/** An awareness message (type 1) setting `state` for `clientId` at `clock`. */
function awarenessMessage(clientId: number, clock: number, state: unknown): Uint8Array {
  const inner = encoding.createEncoder();
  encoding.writeVarUint(inner, 1);
  encoding.writeVarUint(inner, clientId);
  encoding.writeVarUint(inner, clock);
  encoding.writeVarString(inner, JSON.stringify(state));
  const outer = encoding.createEncoder();
  encoding.writeVarUint(outer, 1);
  encoding.writeVarUint8Array(outer, encoding.toUint8Array(inner));
  return encoding.toUint8Array(outer);
}

describe.each(databaseKinds())('[Y8] sync limits: one connection cannot hurt the others (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let staff: ApiClient;
  let viewer: ApiClient;
  let horseIds: string[] = [];
  const devices: Device[] = [];
  const raws: WebSocket[] = [];

  function device(cookie: string): Device {
    const created = connectDevice(server.url, cookie);
    devices.push(created);
    return created;
  }

  async function raw(cookie: string): Promise<RawSocket> {
    const opened = await openRaw(server.url, cookie);
    raws.push(opened.socket);
    return opened;
  }

  /** Ms until an edit on one device shows on another (both synced). */
  async function propagation(from: Device, to: Device): Promise<number> {
    const id = horseIds[0]!;
    const value = `Edit ${newId()}`;
    const started = performance.now();
    from.doc.transact(() => collectionMap(from.doc, 'horses').get(id)?.set('notes', value));
    await expect.poll(() => collectionMap(to.doc, 'horses').get(id)?.get('notes'), { timeout: 10_000, interval: 5 }).toBe(value);
    return performance.now() - started;
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { syncLimits: { sendBufferBytes: SEND_BUFFER } });
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    staff = await signInAs(server.url, admin, 'Staff');
    viewer = await signInAs(server.url, admin, 'Viewer');
    // A document whose full state is ~1.4 MiB: every step 1 with an empty state vector asks for all of it.
    const seeder = connectAckedDevice(server.url, staff.cookie);
    await whenSynced(seeder);
    const lookups = { breedId: newId(), colorId: newId(), genderId: newId() };
    horseIds = Array.from({ length: HORSES }, () => newId());
    seeder.doc.transact(() => {
      writeEntity(seeder.doc, 'breeds', lookups.breedId, { name: 'Limit', isActive: true });
      writeEntity(seeder.doc, 'colors', lookups.colorId, { name: 'Limit', isActive: true });
      writeEntity(seeder.doc, 'genders', lookups.genderId, { name: 'Limit', isActive: true });
      horseIds.forEach((id, index) =>
        writeEntity(seeder.doc, 'horses', id, {
          name: `Herd ${index}`,
          ...lookups,
          statusId: null,
          ownerId: null,
          birthdate: null,
          ageYears: 3,
          priceUsd: '1000.00',
          photoUrl: null,
          notes: `Notes ${index} `.repeat(20),
        }),
      );
    });
    await vi.waitFor(() => expect(seeder.ackedClock()).toBeGreaterThanOrEqual(seeder.localClock()), { timeout: 60_000, interval: 50 });
    seeder.destroy();
  }, 120_000);
  afterEach(() => {
    devices.splice(0).forEach((d) => d.destroy());
    raws.splice(0).forEach((s) => s.terminate());
  });
  afterAll(() => server.destroy());

  it('coalesces 1,000 step-1 requests of a Viewer that never reads: memory stays bounded, edits still flow', async () => {
    const [a, b] = [device(staff.cookie), device(staff.cookie)];
    await Promise.all([whenSynced(a), whenSynced(b)]);
    const before = await propagation(a, b);
    const flooder = await raw(viewer.cookie);
    const baseline = process.memoryUsage();
    let peak = { rss: baseline.rss, arrayBuffers: baseline.arrayBuffers };
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = { rss: Math.max(peak.rss, now.rss), arrayBuffers: Math.max(peak.arrayBuffers, now.arrayBuffers) };
    }, 10);
    flooder.socket.pause(); // never reads: whatever the server sends stays in its buffers
    for (let n = 0; n < 1000; n++) flooder.socket.send(STEP1_EMPTY);
    let during = 0;
    try {
      // An honest device's edit still reaches another device promptly meanwhile.
      during = await propagation(a, b);
      await new Promise((resolve) => setTimeout(resolve, 1500)); // let the server work through the flood
    } finally {
      clearInterval(sampler);
    }
    const grown = { rss: (peak.rss - baseline.rss) / MiB, arrayBuffers: (peak.arrayBuffers - baseline.arrayBuffers) / MiB };
    // Without coalescing every request is a ~1.4 MiB encode held in the send queue: ~1.4 GiB.
    expect(grown.arrayBuffers).toBeLessThan(32);
    expect(grown.rss).toBeLessThan(128);
    expect(during).toBeLessThan(Math.max(2000, before * 10));
    // Read what was sent: one full-state answer per batch of requests, not one per request.
    flooder.socket.resume();
    const fullStates = () => flooder.messages.filter((m) => m[0] === 0 && m[1] === 1).length;
    await expect.poll(fullStates).toBeGreaterThanOrEqual(1);
    expect(fullStates()).toBeLessThanOrEqual(5);
  }, 60_000);

  it('closes a socket that sends more messages than the rate limit allows (4029); other devices keep working', async () => {
    const [a, b] = [device(staff.cookie), device(staff.cookie)];
    await Promise.all([whenSynced(a), whenSynced(b)]);
    const flooder = await raw(staff.cookie);
    // Unknown message types are ignored by y-websocket, but they count.
    const junk = Uint8Array.from([99]);
    for (let n = 0; n < DEFAULT_SYNC_LIMITS.messagesPerSecond * 12; n++) flooder.socket.send(junk);
    expect(await flooder.closed).toBe(CloseCode.TooManyMessages);
    expect(await propagation(a, b)).toBeLessThan(5000);
  });

  it('closes a socket that sends more document updates than allowed (4029), Viewer included', async () => {
    const flooder = await raw(viewer.cookie);
    const update = encoding.createEncoder();
    encoding.writeVarUint(update, 0);
    encoding.writeVarUint(update, 2);
    encoding.writeVarUint8Array(update, Y.encodeStateAsUpdate(new Y.Doc()));
    const message = encoding.toUint8Array(update);
    for (let n = 0; n < DEFAULT_SYNC_LIMITS.updatesPerSecond * 12; n++) flooder.socket.send(message);
    expect(await flooder.closed).toBe(CloseCode.TooManyMessages);
  });

  it('closes a socket that does not read once its unsent data passes the cap (4008); a reading device gets everything', async () => {
    const writer = connectAckedDevice(server.url, staff.cookie);
    devices.push(writer);
    const observer = device(staff.cookie);
    await Promise.all([whenSynced(writer), whenSynced(observer)]);
    const slow = await raw(viewer.cookie);
    slow.socket.pause();
    // ~12 MiB of hardly compressible edits, in updates of ~200 KiB, fanned out to everyone.
    let last = '';
    for (let round = 0; round < 60; round++) {
      writer.doc.transact(() => {
        for (const id of horseIds.slice(0, 50)) {
          last = randomBytes(3000).toString('base64');
          collectionMap(writer.doc, 'horses').get(id)?.set('notes', last);
        }
      });
    }
    await expect.poll(() => writer.ackedClock() >= writer.localClock(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => collectionMap(observer.doc, 'horses').get(horseIds[49]!)?.get('notes'), { timeout: 10_000 }).toBe(last);
    // The close frame waits behind what is already buffered: it arrives once the socket reads.
    slow.socket.resume();
    expect(await slow.closed).toBe(CloseCode.SlowReader);
  }, 60_000);

  it('relays no awareness state over the size cap', async () => {
    const [a, b] = [device(staff.cookie), device(staff.cookie)];
    await Promise.all([whenSynced(a), whenSynced(b)]);
    const seen: unknown[] = [];
    b.provider.awareness.on('change', () => seen.push(b.provider.awareness.getStates().get(a.doc.clientID)));
    a.provider.awareness.setLocalState({ pad: 'x'.repeat(DEFAULT_SYNC_LIMITS.awarenessStateBytes) });
    a.provider.awareness.setLocalState({ name: 'small' });
    await expect.poll(() => b.provider.awareness.getStates().get(a.doc.clientID)).toEqual({ name: 'small' });
    expect(seen.some((state) => typeof state === 'object' && state !== null && 'pad' in state)).toBe(false);
  });

  it("does not apply an awareness update for another connection's client id", async () => {
    const [a, b] = [device(staff.cookie), device(staff.cookie)];
    await Promise.all([whenSynced(a), whenSynced(b)]);
    a.provider.awareness.setLocalState({ name: 'Alice' });
    await expect.poll(() => b.provider.awareness.getStates().get(a.doc.clientID)).toEqual({ name: 'Alice' });
    const spoofer = await raw(viewer.cookie);
    const ownId = 4_000_000_001;
    // Impersonate Alice, then erase her (a null state at a higher clock), then speak for itself.
    spoofer.socket.send(awarenessMessage(a.doc.clientID, 1000, { name: 'Mallory as Alice' }));
    spoofer.socket.send(awarenessMessage(a.doc.clientID, 1001, null));
    spoofer.socket.send(awarenessMessage(ownId, 1, { name: 'Mallory' }));
    // Messages of one socket are handled in order: once its own state shows, the others were refused.
    await expect.poll(() => b.provider.awareness.getStates().get(ownId)).toEqual({ name: 'Mallory' });
    expect(b.provider.awareness.getStates().get(a.doc.clientID)).toEqual({ name: 'Alice' });
  });

  it('refuses a session its ninth socket (4030) before any sync data; the device reconnects once one closes', async () => {
    const session = await signInAs(server.url, admin, 'Staff');
    const open = await Promise.all(Array.from({ length: DEFAULT_SYNC_LIMITS.connectionsPerSession }, () => raw(session.cookie)));
    expect(await connectionOutcome(server.url, { cookie: session.cookie })).toEqual({ code: CloseCode.TooManyConnections, messages: 0 });
    // The app's provider is not signed out by it: it keeps trying, and gets in when a slot frees.
    const tab = device(session.cookie);
    const codes: number[] = [];
    tab.provider.on('connection-close', (event) => event && codes.push(event.code));
    await expect.poll(() => codes).toContain(CloseCode.TooManyConnections);
    expect(tab.provider.shouldConnect).toBe(true);
    open[0]!.socket.close();
    await whenSynced(tab);
    expect(collectionMap(tab.doc, 'horses').size).toBeGreaterThanOrEqual(HORSES);
  });

  it('refuses a user more sockets than the per-user cap across sessions (4030)', async () => {
    const email = `many-${newId().slice(0, 8)}@ranch.test`;
    const password = 'a long enough password';
    const created = await admin.request('/api/users', {
      method: 'POST',
      json: { email, firstName: 'Many', lastName: 'Tabs', role: 'Viewer', password },
    });
    expect(created.status).toBeLessThan(300);
    const perSession = DEFAULT_SYNC_LIMITS.connectionsPerSession;
    // One after another, as a person signs in on several devices: parallel sign-ins are
    // counted before their passwords are checked ([A5]), so a burst would be slowed down.
    const sessions: Awaited<ReturnType<typeof signIn>>[] = [];
    for (let i = 0; i < Math.ceil(DEFAULT_SYNC_LIMITS.connectionsPerUser / perSession) + 1; i++) {
      sessions.push(await signIn(server.url, email, password));
    }
    for (let n = 0; n < DEFAULT_SYNC_LIMITS.connectionsPerUser; n++) await raw(sessions[Math.floor(n / perSession)]!.cookie);
    const fresh = sessions[sessions.length - 1]!;
    expect(await connectionOutcome(server.url, { cookie: fresh.cookie })).toEqual({ code: CloseCode.TooManyConnections, messages: 0 });
  });

  it('closes an unknown document with a long name (4404), its reason cut to fit a close frame', async () => {
    const name = 'ñ'.repeat(200);
    const outcome = await connectionOutcome(server.url, { cookie: staff.cookie }, `${SYNC_PATH}/${encodeURIComponent(name)}`);
    expect(outcome).toEqual({ code: CloseCode.NotFound, messages: 0 });
  });
});
