import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseOptions } from '../src/db/client.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../test/support/databases.ts';
import { ADMIN } from '../test/support/server.ts';
import { spawnServer, type ServerProcess } from '../test/support/server-process.ts';
import { startChaosProxy, type ChaosProxy } from './proxy.ts';

/** How long a plain start may take before it counts as "did not come back". */
const START_LIMIT_MS = 30_000;
/** The data folder's disk in the PGlite case: room for the folder (about 40 MB) and its growth. */
const TMPFS_SIZE = '96m';

export const SERVER_ENV = { RANCH_ADMIN_EMAIL: ADMIN.email, RANCH_ADMIN_PASSWORD: ADMIN.password };

/** What an interrupted run (Ctrl-C) must not leave behind: server processes and tmpfs mounts. */
const leftovers = { servers: new Set<ServerProcess>(), mounts: new Set<string>() };

/** Kills every server still running and unmounts every tmpfs (synchronously enough for an exit handler). */
export function abandonAll(): void {
  for (const server of leftovers.servers) if (server.exit() === null) process.kill(server.pid, 'SIGKILL');
  for (const mount of leftovers.mounts) {
    execFileSync('umount', ['-l', mount], { stdio: 'ignore' });
    rmSync(mount, { recursive: true, force: true });
  }
}

/**
 * What a run's servers stand on: a fresh database (PGlite in a data folder — on a small
 * tmpfs of its own when it can be mounted — or a fresh Postgres database reached through a
 * proxy the nemesis can cut), and the plain start command every (re)start uses.
 */
export type Ground = {
  kind: TestDatabaseKind;
  /** The data folder's own disk, when it is a tmpfs this run mounted. */
  tmpfs: string | undefined;
  dataDir: string | undefined;
  /** Between the servers and Postgres (Postgres case only). */
  dbProxy: ChaosProxy | undefined;
  /** Options that open the database directly (not through the proxy), for the oracle. */
  direct: DatabaseOptions;
  /** `node scripts/start.mjs` with the run's environment: the same command after every fault. */
  start(): Promise<ServerProcess>;
  /** Every server this run started (all are killed when it ends). */
  spawned: ServerProcess[];
  dispose(): Promise<void>;
};

function tryMountTmpfs(dir: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', dir], { stdio: 'ignore' });
    leftovers.mounts.add(dir);
    return true;
  } catch {
    if (!tmpfsRefusedSaid) {
      tmpfsRefusedSaid = true;
      console.warn('chaos: a tmpfs cannot be mounted here (root is needed): the "restart on a nearly full disk" fault is left out.');
    }
    return false;
  }
}

/** The full-disk fault is left out where mounting is refused; that is said once per process. */
let tmpfsRefusedSaid = false;

export async function prepareGround(kind: TestDatabaseKind, wantTmpfs: boolean): Promise<Ground> {
  const spawned: ServerProcess[] = [];
  if (kind === 'postgres') {
    const database = await createTestDatabase('postgres');
    const url = new URL((database.options as { url: string }).url);
    const dbProxy = await startChaosProxy(Number(url.port || 5432));
    const proxied = new URL(url);
    proxied.host = `127.0.0.1:${dbProxy.port}`;
    const through: TestDatabase = { ...database, options: { url: proxied.toString() } };
    return {
      kind,
      tmpfs: undefined,
      dataDir: undefined,
      dbProxy,
      direct: database.options,
      spawned,
      start: () => track(spawned, spawnServer(through, SERVER_ENV)),
      async dispose() {
        await killAll(spawned);
        await dbProxy.close();
        await database.drop();
      },
    };
  }
  const root = mkdtempSync(join(tmpdir(), 'ranch-chaos-'));
  const tmpfs = wantTmpfs && tryMountTmpfs(root) ? root : undefined;
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  const database: TestDatabase = { kind, options: { embedded: true, dataDir }, drop: async () => {} };
  return {
    kind,
    tmpfs,
    dataDir,
    dbProxy: undefined,
    direct: database.options,
    spawned,
    start: () => track(spawned, spawnServer(database, SERVER_ENV)),
    async dispose() {
      await killAll(spawned);
      if (tmpfs) execFileSync('umount', ['-l', tmpfs], { stdio: 'ignore' });
      if (tmpfs) leftovers.mounts.delete(tmpfs);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function killAll(servers: ServerProcess[]): Promise<void> {
  await Promise.all(servers.map((server) => server.kill('SIGKILL')));
  for (const server of servers) leftovers.servers.delete(server);
}

async function track(spawned: ServerProcess[], starting: Promise<ServerProcess>): Promise<ServerProcess> {
  const server = await withLimit(starting);
  spawned.push(server);
  leftovers.servers.add(server);
  return server;
}

async function withLimit(starting: Promise<ServerProcess>): Promise<ServerProcess> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // One that comes up later is not left running.
      starting.then((late) => late.kill('SIGKILL')).catch(() => {});
      reject(new Error(`not listening after ${START_LIMIT_MS / 1000} s`));
    }, START_LIMIT_MS);
  });
  try {
    return await Promise.race([starting, limit]);
  } finally {
    clearTimeout(timer);
  }
}
