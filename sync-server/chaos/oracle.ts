import * as Y from 'yjs';
import { collectionMap, getEntity } from '../../shared/index.ts';
import { openDatabase } from '../src/db/client.ts';
import { deviceRecords } from '../test/fuzz/device-read-model.ts';
import { projectionRecords, validEntities, type Records } from '../test/fuzz/records.ts';
import { client } from '../test/support/client.ts';
import { ledgerPullOf } from '../test/support/ledger-pull.ts';
import type { ServerProcess } from '../test/support/server-process.ts';
import { connectDevice } from '../test/support/sync-client.ts';
import type { Ground } from './cluster.ts';
import type { ChaosDevice, Write } from './devices.ts';
import { Violation } from './nemesis.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(25);
  }
  return check();
}

const sample = (writes: Write[]) =>
  writes
    .slice(0, 3)
    .map((write) => `${write.collection}/${write.id}`)
    .join(', ');

/** The server's document as a fresh device reads it, straight from the server (no proxy). */
async function readDocument(server: ServerProcess, cookie: string): Promise<Y.Doc> {
  const reader = connectDevice(server.url, cookie);
  try {
    if (!(await until(() => reader.provider.synced, 15_000))) throw new Violation(`a fresh device could not sync with ${server.url}`);
    const doc = new Y.Doc();
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(reader.doc));
    return doc;
  } finally {
    reader.destroy();
  }
}

/** The ids the projection lists (GET /api/breeds and /api/colors read the Postgres tables). */
async function listedIds(server: ServerProcess, cookie: string): Promise<Set<string>> {
  const api = client(server.url, cookie);
  const ids = new Set<string>();
  for (const path of ['/api/breeds', '/api/colors']) {
    const response = await api.request(path);
    if (response.status !== 200) throw new Violation(`GET ${path} answered ${response.status} after a restart`);
    for (const row of (await response.json()) as { id: string }[]) ids.add(row.id);
  }
  return ids;
}

/**
 * The durability probe ([Y9], docs/architecture.md "Durability and outages"): right after a
 * restart, before any device is let back in to resend, every write acknowledged before the
 * fault must be in the server's document and in the projection. Returns how many were not.
 */
export async function missingAfterRestart(server: ServerProcess, cookie: string, acknowledged: Write[]): Promise<Write[]> {
  const doc = await readDocument(server, cookie);
  const listed = await listedIds(server, cookie);
  return acknowledged.filter((write) => !getEntity(doc, write.collection, write.id) || !listed.has(write.id));
}

export type Verdict = { acknowledged: number; lost: number; violations: string[] };

const differences = (expected: Records, actual: Records): string[] => {
  const keys = new Set([...expected.keys(), ...actual.keys()]);
  return [...keys].filter((key) => expected.get(key) !== actual.get(key)).slice(0, 3);
};

/**
 * After the last fault is healed: every device's writes acknowledged (none stuck), every
 * device at the server's document, each acknowledged write in the document and in the
 * projection, the projection equal to the document's valid entities, the app device's own
 * read model (web/src/data/projection.ts) equal to them too, and a graceful stop exiting 0.
 */
export async function finalVerdict(ground: Ground, server: ServerProcess, cookie: string, devices: ChaosDevice[]): Promise<Verdict> {
  const violations: string[] = [];
  const settled = await until(() => devices.every((device) => device.connected() && device.ackedClock() >= device.localClock()), 30_000);
  if (!settled) {
    for (const device of devices) {
      if (!(device.connected() && device.ackedClock() >= device.localClock()))
        violations.push(
          `${device.name} (${device.kind}) stuck 30 s after the last heal: connected ${device.connected()}, acknowledged ${device.ackedClock()} of ${device.localClock()}`,
        );
    }
  }
  const writes = devices.flatMap((device) => device.writes.filter((write) => write.clock <= device.ackedClock()));
  const doc = await readDocument(server, cookie);
  const only = new Set(devices.flatMap((device) => device.writes.map((write) => write.id.toLowerCase())));
  for (const collection of ['breeds', 'colors'] as const)
    for (const key of collectionMap(doc, collection).keys()) only.add(key.toLowerCase());
  const expected = validEntities(doc, only);

  const vector = (of: Y.Doc) => JSON.stringify([...Y.decodeStateVector(Y.encodeStateVector(of))].sort(([a], [b]) => a - b));
  const converged = await until(() => devices.every((device) => vector(device.doc) === vector(doc)), 15_000);
  if (!converged) violations.push('devices did not converge to the server document within 15 s');
  for (const device of devices) {
    const differ = differences(expected, validEntities(device.doc, only));
    if (differ.length > 0) violations.push(`${device.name}'s document differs from the server's at ${differ.join(', ')}`);
  }
  const app = devices.find((device) => device.kind === 'app');
  if (app) {
    const differ = differences(expected, await deviceRecords(app.doc, only, ledgerPullOf(server.url, cookie)));
    if (differ.length > 0) violations.push(`the app's read model of ${app.name} differs from the server document at ${differ.join(', ')}`);
  }

  await server.kill('SIGTERM');
  if (server.exit() !== 0) violations.push(`the final graceful stop exited with ${server.exit()}: ${server.output().slice(-400)}`);
  const database = await openDatabase(ground.direct);
  let projected: Records;
  try {
    projected = await projectionRecords(database.sql, only);
  } finally {
    await database.close();
  }
  const differ = differences(expected, projected);
  if (differ.length > 0) violations.push(`the projection differs from the document's valid entities at ${differ.join(', ')}`);
  const lost = writes.filter((write) => !getEntity(doc, write.collection, write.id) || !projected.has(`${write.collection}/${write.id}`));
  if (lost.length > 0) violations.push(`${lost.length} acknowledged write(s) missing from the document or the projection: ${sample(lost)}`);
  return { acknowledged: writes.length, lost: lost.length, violations };
}

export { sample };
