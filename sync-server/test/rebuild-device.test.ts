import 'fake-indexeddb/auto';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectionMap, DOC_NAME, SYNC_PATH, type JsonValue } from '../../shared/index.ts';
import { openRanchData, type RanchData } from '../../web/src/data/ranch-data.ts';
import { appendUpdates } from '../src/sync/persistence.ts';
import { client, createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { socketWith } from './support/device-data.ts';
import { durableDocument } from './support/ranch-state.ts';
import { startTestServerOn, type TestServer } from './support/server.ts';
import { startStaffRanch } from './support/staff-ranch.ts';

const ROOT = resolve(import.meta.dirname, '../..');
// The data layer reads the browser's online flag; Node 20 has no navigator.
vi.stubGlobal('navigator', { onLine: true });
const MiB = 1 << 20;

function rebuildCommand(server: TestServer): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  const { options } = server.database;
  if ('url' in options) env.DATABASE_URL = options.url;
  else env.RANCH_DATA_DIR = options.dataDir ?? '';
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'sync-server/src/maintenance/cli.ts'],
      { cwd: ROOT, env },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

/** A 1 MiB key under `horses` and a 1 MiB root name, each deleted again, written straight into the store. */
async function bloatStoredDocument(server: TestServer): Promise<void> {
  const { sql } = server.db;
  const doc = await durableDocument(sql);
  const [row] = await sql<{ last_seq: string }[]>`select last_seq from docs where name = ${DOC_NAME}`;
  const updates: Uint8Array[] = [];
  doc.on('update', (update: Uint8Array) => updates.push(update));
  doc.transact(() => collectionMap(doc, 'horses').set('k'.repeat(MiB), new Y.Map<JsonValue>()));
  doc.transact(() => collectionMap(doc, 'horses').delete('k'.repeat(MiB)));
  doc.transact(() => doc.getMap('R'.repeat(MiB)).set('a', 1));
  doc.transact(() => doc.getMap('R'.repeat(MiB)).delete('a'));
  const logged = updates.map((update) => ({ update, userId: null }));
  expect(await appendUpdates(sql, DOC_NAME, BigInt(row!.last_seq), logged, doc, new Map())).not.toBeNull();
  doc.destroy();
}

describe.each(databaseKinds())('a device across a document rebuild (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;
  let owner: { userId: string; name: string };
  let horseId: string;
  let kept: { id: string } | undefined;
  const names = { docDbName: `doc-${kind}-${Date.now()}`, readDbName: `read-${kind}-${Date.now()}` };
  const opened: RanchData[] = [];

  const open = () => {
    const data = openRanchData({
      ...names,
      syncUrl: server.url.replace(/^http/, 'ws') + SYNC_PATH,
      WebSocketPolyfill: socketWith(staff.cookie),
    });
    opened.push(data);
    return data;
  };
  const close = async (data: RanchData) => {
    opened.splice(opened.indexOf(data), 1);
    await data.destroy();
  };
  const horseName = async () =>
    ((await (await staff.request('/api/horses')).json()) as { id: string; name: string }[]).find((horse) => horse.id === horseId)?.name;
  const savedAndSynced = (data: RanchData) =>
    vi.waitFor(() => expect(data.sync?.provider.synced && data.tracker.isSaved()).toBe(true), { timeout: 20_000, interval: 50 });

  beforeAll(async () => {
    const ranch = await startStaffRanch(kind);
    server = ranch.server;
    staff = ranch.staff;
    const me = (await (await staff.request('/api/auth/user')).json()) as { id: string };
    owner = { userId: me.id, name: 'Staff' };
    const { breed, color, gender } = ranch.lookups;
    horseId = await createdId(staff, '/api/horses', { name: 'Juniper', breedId: breed, colorId: color, genderId: gender });
  }, 120_000);

  afterAll(async () => {
    for (const data of opened) await data.destroy().catch(() => {});
    await server?.destroy();
  });

  it('keeps the changes it had not sent, on the rebuilt document, without the old tombstones', async () => {
    const device = open();
    expect((await device.connect(owner)).kind).toBe('syncing');
    await savedAndSynced(device);
    await vi.waitFor(async () => expect(await device.persistence.readEpoch()).toBe(''));

    // Offline, this device renames the horse and adds a buyer; the server never hears of either.
    device.setOnline(false);
    device.horses.setField(horseId, 'name', 'Juniper Star');
    const buyerId = device.buyers.create({ firstName: 'Dee', lastName: 'Ray' });
    expect(device.tracker.isSaved()).toBe(false);

    // Meanwhile the stored document was bloated, and the operator rebuilds it.
    await bloatStoredDocument(server);
    await server.close();
    const rebuilt = await rebuildCommand(server);
    expect(rebuilt.code, rebuilt.output).toBe(0);
    server = await startTestServerOn(server.database);
    staff = client(server.url, staff.cookie); // the same session, at the restarted server's address
    const [row] = await server.db.sql<{ epoch: string }[]>`select epoch from docs where name = ${DOC_NAME}`;
    const epoch = row?.epoch;

    // Back online, the device hears the new epoch: it keeps its changes and sets its document aside.
    await close(device); // the old server's address: the app reconnects to the same one; here it moved
    const before = open();
    expect((await before.connect(owner)).kind).toBe('syncing');
    await vi.waitFor(() => expect(before.status.get().documentReplaced).toBe(true), { timeout: 20_000 });
    // Nothing of the old document reached the server.
    expect(await horseName()).toBe('Juniper');

    // The page reloads: a fresh data layer on the same databases.
    await close(before);
    const after = open();
    expect((await after.connect(owner)).kind).toBe('syncing');
    await savedAndSynced(after);
    await vi.waitFor(async () => {
      expect(await horseName()).toBe('Juniper Star');
      kept = ((await (await staff.request('/api/buyers')).json()) as { id: string }[]).find((buyer) => buyer.id === buyerId);
      expect(kept).toBeDefined();
    });
    expect(await after.persistence.readEpoch()).toBe(epoch);
    // The device's document is the rebuilt one and its own changes: no tombstoned megabytes.
    expect(Y.encodeStateAsUpdate(after.doc).byteLength).toBeLessThan(8 * 1024);
    expect(collectionMap(after.doc, 'horses').get(horseId)?.get('name')).toBe('Juniper Star');
    // What a new device downloads now: small, with the carried-over changes.
    const stored = await durableDocument(server.db.sql);
    expect(Y.encodeStateAsUpdate(stored).byteLength).toBeLessThan(8 * 1024);
    expect(collectionMap(stored, 'buyers').get(buyerId)?.get('lastName')).toBe('Ray');
    stored.destroy();
  }, 120_000);
});
