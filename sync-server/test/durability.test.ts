import { describe, expect, it } from 'vitest';
import { signIn } from './support/client.ts';
import { createTestDatabase, databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { spawnServer } from './support/server-process.ts';
import { connectAckedDevice, connectDevice, whenSynced } from './support/sync-client.ts';
import { collectionMap, getEntity, newId, writeEntity } from '../../shared/index.ts';
import { cleanupsAfterEach } from './support/cleanups.ts';

describe.each(databaseKinds())('durability (%s)', (kind) => {
  const { defer, track } = cleanupsAfterEach();

  it('[O2] folds the log into a snapshot without losing what an offline device still needs', async () => {
    let server: TestServer = await startTestServer(kind, { compactEvery: 10 });
    defer(() => server.destroy());
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);

    const offline = track(connectDevice(server.url, admin.cookie));
    await whenSynced(offline);
    offline.provider.disconnect();
    const offlineId = newId();
    offline.doc.transact(() => writeEntity(offline.doc, 'breeds', offlineId, { name: 'Written offline', isActive: true }));

    const online = track(connectAckedDevice(server.url, admin.cookie));
    await whenSynced(online);
    const ids = Array.from({ length: 25 }, () => newId());
    for (const [index, id] of ids.entries()) {
      online.doc.transact(() => writeEntity(online.doc, 'breeds', id, { name: `Breed ${index}`, isActive: true }));
    }
    await expect.poll(() => online.ackedClock()).toBe(online.localClock());
    await expect
      .poll(async () => (await server.db.sql`select upto_seq::int as seq from doc_snapshots`)[0]?.seq ?? 0)
      .toBeGreaterThanOrEqual(20);
    const [log] = await server.db.sql`select count(*)::int as n from doc_updates`;
    expect(log?.n).toBeLessThan(10);

    offline.provider.connect();
    await expect.poll(() => ids.every((id) => getEntity(offline.doc, 'breeds', id))).toBe(true);
    await expect.poll(async () => (await server.db.sql`select name from breeds where id = ${offlineId}`)[0]?.name).toBe('Written offline');

    server = await server.restart();
    const again = await signIn(server.url, ADMIN.email, ADMIN.password);
    const fresh = track(connectDevice(server.url, again.cookie));
    await whenSynced(fresh);
    expect(collectionMap(fresh.doc, 'breeds').size).toBe(26);
  });

  it('[Y9] loses nothing it acknowledged when killed with SIGKILL mid-stream', async () => {
    const database = await createTestDatabase(kind);
    defer(() => database.drop());
    // 3,000 updates as fast as they go, one message each: past the per-connection rates an
    // honest device never reaches (docs/sync-limits.md), which would close it and turn the
    // stream into one step 2 on reconnect. Lifted, so the kill lands mid-stream.
    const env = {
      RANCH_ADMIN_EMAIL: ADMIN.email,
      RANCH_ADMIN_PASSWORD: ADMIN.password,
      RANCH_SYNC_MESSAGES_PER_SECOND: '100000',
      RANCH_SYNC_UPDATES_PER_SECOND: '100000',
    };
    const first = await spawnServer(database, env);
    defer(() => first.kill('SIGKILL'));
    const admin = await signIn(first.url, ADMIN.email, ADMIN.password);
    const device = track(connectAckedDevice(first.url, admin.cookie));
    await whenSynced(device);

    const clocks: { id: string; clock: number }[] = [];
    // Long enough that the kill lands mid-stream even when commits are fast.
    for (let index = 0; index < 3000; index++) {
      const id = newId();
      device.doc.transact(() => writeEntity(device.doc, 'colors', id, { name: `Color ${index}`, isActive: true }));
      clocks.push({ id, clock: device.localClock() });
    }
    // Kill while the server is still working through the stream.
    await expect.poll(() => device.ackedClock(), { interval: 5, timeout: 30_000 }).toBeGreaterThanOrEqual(clocks[40]!.clock);
    const killedAt = device.ackedClock();
    await first.kill('SIGKILL');
    expect(killedAt).toBeLessThan(clocks.at(-1)!.clock);
    device.destroy();

    const second = await spawnServer(database, env);
    defer(() => second.kill('SIGTERM'));
    const again = await signIn(second.url, ADMIN.email, ADMIN.password);
    const fresh = track(connectDevice(second.url, again.cookie));
    await whenSynced(fresh);
    const acknowledged = clocks.filter((entry) => entry.clock <= killedAt);
    expect(acknowledged.length).toBeGreaterThan(40);
    for (const { id } of acknowledged) expect(getEntity(fresh.doc, 'colors', id)).toBeDefined();
    const listed = (await (await again.request('/api/colors')).json()) as { id: string }[];
    const projected = new Set(listed.map((color) => color.id));
    expect(acknowledged.every(({ id }) => projected.has(id))).toBe(true);
  });
});
