import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CloseCode, getEntity, newId, writeEntity } from '../../shared/index.ts';
import { openDatabase } from '../src/db/client.ts';
import { RequestGate } from '../src/http/request-gate.ts';
import { DocumentRegistry } from '../src/sync/registry.ts';
import { signIn } from './support/client.ts';
import { createTestDatabase, databaseKinds } from './support/databases.ts';
import { ADMIN } from './support/server.ts';
import { spawnServer } from './support/server-process.ts';
import { connectAckedDevice, connectDevice, whenSynced } from './support/sync-client.ts';
import { cleanupsAfterEach } from './support/cleanups.ts';

/** A port free now, so that a restarted server listens where the device reconnects. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(databaseKinds())('graceful stop (%s)', (kind) => {
  const { defer, track } = cleanupsAfterEach();

  it('[Y9] [Y8] SIGTERM mid-stream: commits what it took in, closes the device with 1012, exits 0; the device resumes on the restarted server', async () => {
    const database = await createTestDatabase(kind);
    defer(() => database.drop());
    // The device writes faster than the per-connection rates an honest device stays under
    // (docs/sync-limits.md), so that a commit is always in flight: lifted.
    const env = {
      RANCH_ADMIN_EMAIL: ADMIN.email,
      RANCH_ADMIN_PASSWORD: ADMIN.password,
      RANCH_SYNC_MESSAGES_PER_SECOND: '100000',
      RANCH_SYNC_UPDATES_PER_SECOND: '100000',
      PORT: String(await freePort()),
    };
    const first = await spawnServer(database, env);
    defer(() => first.kill('SIGKILL'));
    const admin = await signIn(first.url, ADMIN.email, ADMIN.password);
    const device = track(connectAckedDevice(first.url, admin.cookie));
    const closes: number[] = [];
    device.provider.on('connection-close', (event) => closes.push(event?.code ?? 0));
    let connects = 0;
    device.provider.on('status', ({ status }) => status === 'connected' && connects++);
    await whenSynced(device);

    // The device writes continuously: before, during and after the stop, and while the server is down.
    const written: { id: string; clock: number }[] = [];
    let writing = true;
    const writer = (async () => {
      while (writing) {
        for (let index = 0; index < 3; index++) {
          const id = newId();
          device.doc.transact(() => writeEntity(device.doc, 'colors', id, { name: `Color ${written.length}`, isActive: true }));
          written.push({ id, clock: device.localClock() });
        }
        await sleep(5);
      }
    })();
    defer(async () => {
      writing = false;
      await writer;
    });

    await expect
      .poll(() => written.length > 150 && device.ackedClock() >= written[150]!.clock, { interval: 5, timeout: 30_000 })
      .toBe(true);
    const signalledAt = performance.now();
    await first.kill('SIGTERM');
    const stopMs = performance.now() - signalledAt;
    expect(first.exit(), first.output()).toBe(0);
    expect(stopMs).toBeLessThan(10_000);
    expect(first.output()).toMatch(/SIGTERM: stopping[\s\S]*Stopped/);
    await expect.poll(() => closes.length).toBeGreaterThan(0);
    expect(closes[0]).toBe(CloseCode.ServiceRestart);
    const acknowledged = written.filter(({ clock }) => clock <= device.ackedClock());
    const writtenBeforeRestart = written.length;
    expect(acknowledged.length).toBeGreaterThan(150);
    expect(acknowledged.length).toBeLessThan(writtenBeforeRestart); // it kept writing through the stop

    // What the stopped server left, read before the device can resend anything: every
    // acknowledged write is in the document and in the projection.
    const db = await openDatabase(database.options);
    try {
      const registry = new DocumentRegistry(db.sql, { alone: true });
      const host = await registry.get();
      const missing = acknowledged.filter(({ id }) => !getEntity(host.doc, 'colors', id));
      await registry.close();
      expect(missing).toEqual([]);
      const projected = new Set((await db.sql<{ id: string }[]>`select id from colors`).map((row) => row.id));
      expect(acknowledged.filter(({ id }) => !projected.has(id))).toEqual([]);
    } finally {
      await db.close();
    }

    // The same server again, on the same folder or database and port: the same device (no
    // reload, no new provider) reconnects by itself and its later writes arrive.
    const second = await spawnServer(database, env);
    defer(() => second.kill('SIGTERM'));
    await expect.poll(() => connects, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => written.length, { timeout: 15_000 }).toBeGreaterThan(writtenBeforeRestart + 3);
    writing = false;
    await writer;
    expect(written.length).toBeGreaterThan(writtenBeforeRestart);
    await expect.poll(() => device.ackedClock(), { timeout: 15_000 }).toBe(device.localClock());

    const again = await signIn(second.url, ADMIN.email, ADMIN.password);
    const fresh = track(connectDevice(second.url, again.cookie));
    await whenSynced(fresh);
    expect(written.filter(({ id }) => !getEntity(fresh.doc, 'colors', id))).toEqual([]);
    const listed = new Set(((await (await again.request('/api/colors')).json()) as { id: string }[]).map((color) => color.id));
    expect(written.filter(({ id }) => !listed.has(id))).toEqual([]);
    expect(closes.slice(1).every((code) => code !== CloseCode.Unauthorized)).toBe(true);
  }, 90_000);

  it('[Y8] SIGINT (Ctrl-C) stops the same way: the device is closed with 1012 and the process exits 0', async () => {
    const database = await createTestDatabase(kind);
    defer(() => database.drop());
    const server = await spawnServer(database, { RANCH_ADMIN_EMAIL: ADMIN.email, RANCH_ADMIN_PASSWORD: ADMIN.password });
    defer(() => server.kill('SIGKILL'));
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    const device = track(connectAckedDevice(server.url, admin.cookie));
    const closes: number[] = [];
    device.provider.on('connection-close', (event) => closes.push(event?.code ?? 0));
    await whenSynced(device);
    await server.kill('SIGINT');
    expect(server.exit(), server.output()).toBe(0);
    expect(server.output()).toMatch(/SIGINT: stopping[\s\S]*Stopped/);
    await expect.poll(() => closes[0]).toBe(CloseCode.ServiceRestart);
  }, 60_000);
});

describe('requests during a stop', () => {
  it('[X1] lets the requests in flight finish, then answers new ones 503 with Retry-After', async () => {
    const gate = new RequestGate();
    let finish: () => void = () => {};
    const fetch = gate.wrap(async (request: Request) => {
      if (new URL(request.url).pathname === '/slow') await new Promise<void>((resolve) => (finish = resolve));
      return new Response('done');
    });
    const slow = fetch(new Request('http://ranch.test/slow'));
    let stopped = false;
    const stopping = gate.stop().then(() => (stopped = true));
    const refused = await fetch(new Request('http://ranch.test/api/horses'));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({ message: 'The server is restarting; try again in a moment.' });
    await sleep(20);
    expect(stopped).toBe(false);
    finish();
    expect(await (await slow).text()).toBe('done');
    await stopping;
    expect(stopped).toBe(true);
  });
});
