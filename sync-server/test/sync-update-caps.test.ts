import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createdId, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { connectAckedDevice, whenSynced } from './support/sync-client.ts';
import { collectionMap, newId, writeEntity } from '../../shared/index.ts';

/**
 * What one update may cost the others (docs/sync-limits.md): how many records it may create,
 * and how many of a user's changes the server puts back before it refuses their updates.
 * Lowered here so the tests stay small.
 */
describe.each(databaseKinds())('[Y8] caps on what updates cost (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;
  let other: ApiClient;
  const lookups: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(kind, { syncLimits: { entitiesPerUpdate: 50, invalidPerMinute: 5 } });
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    staff = await signInAs(server.url, admin, 'Staff');
    other = await signInAs(server.url, admin, 'Staff');
    lookups.breedId = await createdId(admin, '/api/breeds', { name: 'Shire' });
    lookups.colorId = await createdId(admin, '/api/colors', { name: 'Black' });
    lookups.genderId = await createdId(admin, '/api/genders', { name: 'Mare' });
  });
  afterAll(() => server.destroy());

  async function device(client: ApiClient) {
    const created = connectAckedDevice(server.url, client.cookie);
    await whenSynced(created);
    const closes: number[] = [];
    created.provider.on('connection-close', (event) => event && closes.push(event.code));
    return { ...created, closes };
  }
  const horseCount = async () => (await server.db.sql`select count(*)::int as n from horses`)[0]?.n as number;

  it('refuses an update that creates more records than the cap, before applying it, and takes one at the cap', async () => {
    const a = await device(staff);
    a.doc.transact(() => {
      for (let i = 0; i < 51; i++) writeEntity(a.doc, 'horses', newId(), { name: `Bulk ${i}`, ...lookups });
    });
    await expect.poll(() => a.closes[0]).toBe(4400);
    expect(await horseCount()).toBe(0);
    a.destroy();

    const b = await device(staff);
    b.doc.transact(() => {
      for (let i = 0; i < 50; i++) writeEntity(b.doc, 'horses', newId(), { name: `Bulk ${i}`, ...lookups });
    });
    await expect.poll(horseCount).toBe(50);
    b.destroy();
  });

  it("refuses a user's updates once too many of their changes were put back, and not another user's", async () => {
    const a = await device(staff);
    a.doc.transact(() => {
      for (let i = 0; i < 6; i++) collectionMap(a.doc, 'horses').set(newId(), new Y.Text('not a horse') as never);
    });
    await expect.poll(() => a.ackedClock() >= a.localClock()).toBe(true);
    expect(a.notices).toHaveLength(6);
    const before = await horseCount();
    writeEntity(a.doc, 'horses', newId(), { name: 'Refused', ...lookups });
    await expect.poll(() => a.closes[0]).toBe(4400);
    expect(await horseCount()).toBe(before);
    a.destroy();

    const b = await device(other);
    b.doc.transact(() => writeEntity(b.doc, 'horses', newId(), { name: 'Welcome', ...lookups }));
    await expect.poll(horseCount).toBe(before + 1);
    b.destroy();
  });
});
