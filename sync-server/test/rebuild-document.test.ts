import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode, collectionMap, DOC_NAME, INITIAL_EPOCH, type JsonValue, writeEntity } from '../../shared/index.ts';
import type { Sql } from '../src/db/client.ts';
import { appendUpdates } from '../src/sync/persistence.ts';
import { createdId, signIn, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { canonicalState, durableDocument } from './support/ranch-state.ts';
import { ADMIN, startTestServerOn, type TestServer } from './support/server.ts';
import { startStaffRanch } from './support/staff-ranch.ts';
import { connectAckedDevice, connectDevice, whenSynced, type Device } from './support/sync-client.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const MiB = 1 << 20;
const INVALID_HORSE = '0190a000-0000-7000-8000-00000000dead';

/** `npm run rebuild-document` as an operator runs it, on the database of `server`. */
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

/**
 * The N1 bloat of the security review, written straight into the store (the socket refuses
 * such updates): a 1 MiB key under a collection, a 1 MiB root name and a 1 MiB field of a
 * horse, each deleted again, as the sync rules did once they had been applied.
 */
async function bloatStoredDocument(sql: Sql, horseId: string): Promise<void> {
  const doc = await durableDocument(sql);
  const [row] = await sql<{ last_seq: string }[]>`select last_seq from docs where name = ${DOC_NAME}`;
  const updates: Uint8Array[] = [];
  doc.on('update', (update: Uint8Array) => updates.push(update));
  const horses = collectionMap(doc, 'horses');
  const horse = horses.get(horseId)!;
  doc.transact(() => horses.set('k'.repeat(MiB), new Y.Map<JsonValue>()));
  doc.transact(() => horses.delete('k'.repeat(MiB)));
  doc.transact(() => doc.getMap('R'.repeat(MiB)).set('a', 1));
  doc.transact(() => doc.getMap('R'.repeat(MiB)).delete('a'));
  doc.transact(() => horse.set('f'.repeat(MiB), 'x'));
  doc.transact(() => horse.delete('f'.repeat(MiB)));
  // And a horse no rule can make valid (no name, a breed that does not exist, never valid before).
  doc.transact(() => writeEntity(doc, 'horses', INVALID_HORSE, { breedId: crypto.randomUUID() }));
  const logged = updates.map((update) => ({ update, userId: null }));
  expect(await appendUpdates(sql, DOC_NAME, BigInt(row!.last_seq), logged, doc, new Map())).not.toBeNull();
  doc.destroy();
}

/** What a new device downloads: the state of a stock client once synced. */
async function newDeviceState(server: TestServer, cookie: string): Promise<{ bytes: number; canonical: string }> {
  const device = connectDevice(server.url, cookie);
  await whenSynced(device);
  const state = { bytes: Y.encodeStateAsUpdate(device.doc).byteLength, canonical: canonicalState(device.doc) };
  device.destroy();
  return state;
}

/** How the server ends a stock client's socket: the code of its first close. */
function firstClose(device: Device): Promise<number> {
  return new Promise((done) => device.provider.once('connection-close', (event) => done(event?.code ?? 0)));
}

describe.each(databaseKinds())('npm run rebuild-document (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;
  let horseId: string;
  let before: { bytes: number; canonical: string };
  let history: unknown;
  /** A stock client that synced before the rebuild and kept its document (and one change of its own). */
  let old: Device;

  beforeAll(async () => {
    const ranch = await startStaffRanch(kind);
    server = ranch.server;
    staff = ranch.staff;
    const { breed, color, gender } = ranch.lookups;
    const owner = await createdId(staff, '/api/owners', { firstName: 'Sam', lastName: 'Hill', phone: '555-0100', email: '' });
    const horse = { name: 'Juniper', breedId: breed, colorId: color, genderId: gender, ownerId: owner };
    horseId = await createdId(staff, '/api/horses', horse);
    expect((await staff.request(`/api/horses/${horseId}`, { method: 'PUT', json: { ...horse, name: 'Juniper Star' } })).status).toBe(200);
    history = await (await staff.request(`/api/history/horses/${horseId}`)).json();
    before = await newDeviceState(server, staff.cookie);

    old = connectDevice(server.url, staff.cookie);
    await whenSynced(old);
    old.provider.disconnect();
    // Made offline, never sent: a stock client has no way to carry it over (docs/sync-rules.md).
    old.doc.transact(() => writeEntity(old.doc, 'breeds', crypto.randomUUID(), { name: 'Offline breed', isActive: true }));

    await bloatStoredDocument(server.db.sql, horseId);
    server = await server.restart();
    staff = await signIn(server.url, ADMIN.email, ADMIN.password);
  }, 120_000);

  afterAll(async () => {
    old?.destroy();
    await server?.destroy();
  });

  it('finds the document bloated as N1 left it, still after a restart', async () => {
    const bloated = await newDeviceState(server, staff.cookie);
    expect(bloated.bytes).toBeGreaterThan(3 * MiB);
    // None of the bloat is visible; the invalid horse is, until the rebuild drops it.
    expect(bloated.canonical).not.toContain('kkkk');
    expect(bloated.canonical).toContain(INVALID_HORSE);
  });

  it('refuses to run while a server holds the database, and changes nothing', async () => {
    const { code, output } = await rebuildCommand(server);
    expect(code).toBe(1);
    expect(output).toMatch(kind === 'pglite' ? /A running server holds .*: stop it first/ : /A Ranch server is connected to this database/);
    expect(output).toContain('Nothing was changed');
    expect((await newDeviceState(server, staff.cookie)).bytes).toBeGreaterThan(3 * MiB);
  }, 60_000);

  it('rebuilds it small under a new epoch, every valid record and the history kept', async () => {
    await server.close();
    const { code, output } = await rebuildCommand(server);
    expect(output).toMatch(/full state a new device downloads: [\d,]+ bytes before, [\d,]+ bytes after/);
    expect(code).toBe(0);
    expect(output).toContain('records kept: 5 (1 horses, 1 owners, 1 breeds, 1 colors, 1 genders)');
    expect(output).toContain('records dropped as invalid: 1');
    expect(output).toMatch(new RegExp(`\\n    horses ${INVALID_HORSE}: .+`));
    const [, bytesBefore, bytesAfter] = /([\d,]+) bytes before, ([\d,]+) bytes after/
      .exec(output)!
      .map((text) => Number(text.replaceAll(',', '')));
    expect(bytesBefore).toBeGreaterThan(3 * MiB);
    expect(bytesAfter).toBeLessThan(4096);

    server = await startTestServerOn(server.database);
    staff = await signIn(server.url, ADMIN.email, ADMIN.password);
    const after = await newDeviceState(server, staff.cookie);
    expect(after.bytes).toBeLessThan(before.bytes + 1024);
    expect(after.canonical).toBe(before.canonical);
    expect(await (await staff.request(`/api/history/horses/${horseId}`)).json()).toEqual(history);
    expect(((await (await staff.request('/api/horses')).json()) as { id: string }[]).map((horse) => horse.id)).toEqual([horseId]);

    // The stored document itself, as a restart or a backup reads it.
    const sql = server.db.sql;
    const stored = await durableDocument(sql);
    expect(Y.encodeStateAsUpdate(stored).byteLength).toBe(after.bytes);
    const [row] = await sql<{ epoch: string }[]>`select epoch from docs where name = ${DOC_NAME}`;
    expect(row!.epoch).not.toBe(INITIAL_EPOCH);
    expect(output).toContain(`epoch: ${row!.epoch} (was the first)`);
    stored.destroy();
  }, 120_000);

  it('names the new epoch first to devices that ask for acknowledgements', async () => {
    const device = connectAckedDevice(server.url, staff.cookie);
    await whenSynced(device);
    const [row] = await server.db.sql<{ epoch: string }[]>`select epoch from docs where name = ${DOC_NAME}`;
    expect(device.epochs).toEqual([row!.epoch]);
    device.destroy();
  });

  it('closes a stock client holding the old document with 4409, and takes nothing of it', async () => {
    const reconnected = connectDevice(server.url, staff.cookie, { doc: old.doc });
    expect(await firstClose(reconnected)).toBe(CloseCode.EpochChanged);
    const after = await newDeviceState(server, staff.cookie);
    expect(after.bytes).toBeLessThan(before.bytes + 1024);
    expect(after.canonical).toBe(before.canonical);
    reconnected.provider.destroy();
  });
});
