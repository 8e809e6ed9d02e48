import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, Worker } from 'node:worker_threads';
import { lockDataDir } from './data-dir-lock.ts';

export type EmbeddedPostgres = {
  /**
   * The unix socket PGlite listens on, in a folder only this server's user may enter (0700).
   * PGlite checks no password, so it listens on no TCP port at all: any local user could
   * otherwise read and change the ranch (docs/security.md).
   */
  socketPath: string;
  /** postgres.js options that reach it: `postgres(embedded.connection)`. */
  connection: { path: string; user: string; database: string };
  stop(): Promise<void>;
};

/** Postgres's own name for a socket file; postgres.js and psql look for it in a `host` folder. */
export const SOCKET_FILE = '.s.PGSQL.5432';
/** A unix socket path longer than this cannot be bound (sun_path is 108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

/**
 * Starts PGlite in a worker thread. `dataDir` undefined keeps the database in memory (tests);
 * otherwise the data lives in `<dataDir>/pg` and a lock the kernel releases with this process
 * (data-dir-lock.ts) stops a second server from opening the same folder, which would silently
 * lose committed rows. The data folder and everything in it are made this user's alone at
 * every start (`makePrivate`).
 *
 * The worker serves Postgres's wire protocol on `<dataDir>/run/.s.PGSQL.5432`, the folder
 * 0700 (made so if it was not), so only this user can connect; with no data folder, or one
 * whose path is too long for a socket, in a fresh 0700 folder under the system's tmpdir.
 */
export async function startEmbeddedPostgres(dataDir: string | undefined): Promise<EmbeddedPostgres> {
  if (dataDir) makePrivate(dataDir);
  const lock = dataDir ? await lockDataDir(dataDir) : undefined;
  const socket = socketFolder(dataDir);
  const releaseLock = async () => {
    socket.dispose();
    await lock?.release();
  };
  const socketPath = join(socket.dir, SOCKET_FILE);
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir: dataDir ? join(dataDir, 'pg') : undefined, socketPath },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`Embedded Postgres exited with code ${code}`)));
      worker.on('message', (message: { type: string }) => {
        if (message.type === 'ready') resolve();
      });
    });
    worker.removeAllListeners('exit');
    // PGlite writes a new database's files 0666 whatever the umask (and its relation cache
    // files 0644 at each start): private again now it has started.
    if (dataDir && process.platform !== 'win32') removeGroupAndOther(join(dataDir, 'pg'));
    return {
      socketPath,
      connection: { path: socketPath, user: 'postgres', database: 'postgres' },
      async stop() {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 5000);
          worker.on('message', (message: { type: string }) => {
            if (message.type === 'stopped') {
              clearTimeout(timer);
              resolve();
            }
          });
          worker.postMessage({ type: 'stop' });
        });
        await worker.terminate();
        await releaseLock();
      },
    };
  } catch (error) {
    await worker.terminate();
    await releaseLock();
    // PGlite aborts without a reason when the disk is full (found by `npm run chaos`): say it.
    const free = dataDir ? freeBytes(dataDir) : undefined;
    if (free !== undefined && free < LOW_DISK_BYTES) {
      throw new Error(
        `Embedded Postgres could not start: the disk of the data folder ${dataDir} has only ${Math.floor(free / 1024)} KiB free. ` +
          'Free some space and start again.',
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * PostgreSQL's own rule for its data directory (it refuses to start when group or others may
 * enter it), applied by fixing rather than refusing: the folder becomes 0700, every file and
 * folder under `<data>/pg` loses its group and other bits (an install begun by an older Ranch
 * made the folder 0755, and PGlite writes its files 0666: every local user could read the
 * password hashes in the WAL and write `pg_control`), and the process's umask becomes 077, so
 * the files the database creates from now on are 0600 (the pass runs again once PGlite has
 * started: it writes a new database 0666 regardless). A data folder of another user is refused.
 */
function makePrivate(dataDir: string): void {
  if (isMainThread) process.umask(0o077); // a worker thread cannot set it (the server starts on the main one)
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dataDir);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) {
    throw new Error(`${dataDir} must be a folder of this user: the ranch's database goes there.`);
  }
  if (process.platform === 'win32') return;
  chmodSync(dataDir, 0o700);
  const pg = join(dataDir, 'pg');
  if (existsSync(pg)) removeGroupAndOther(pg);
}

/** `chmod -R go-rwx`, without following symbolic links. */
function removeGroupAndOther(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & 0o077) !== 0) chmodSync(path, stat.mode & 0o700);
  if (stat.isDirectory()) for (const entry of readdirSync(path)) removeGroupAndOther(join(path, entry));
}

/**
 * The folder for the socket, 0700 and this user's own: `<dataDir>/run` (the data folder's lock
 * makes a socket file left there by a killed server safe to remove), else a new folder in
 * tmpdir, removed again by `dispose`.
 */
function socketFolder(dataDir: string | undefined): { dir: string; dispose(): void } {
  // Windows has no unix sockets for Node: a named pipe with an unguessable name instead.
  if (process.platform === 'win32') return { dir: `\\\\.\\pipe\\ranch-pg-${randomUUID()}`, dispose: () => {} };
  const inData = dataDir ? join(dataDir, 'run') : undefined;
  if (inData && join(inData, SOCKET_FILE).length <= MAX_SOCKET_PATH) {
    mkdirSync(inData, { recursive: true, mode: 0o700 });
    const stat = lstatSync(inData);
    if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) {
      throw new Error(`${inData} must be a folder of this user: the embedded database's socket goes there.`);
    }
    chmodSync(inData, 0o700);
    rmSync(join(inData, SOCKET_FILE), { force: true });
    return { dir: inData, dispose: () => rmSync(join(inData, SOCKET_FILE), { force: true }) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'ranch-pg-'));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Below this much free space a failed start is blamed on the disk (a WAL segment is 16 MiB). */
const LOW_DISK_BYTES = 64 * 1024 * 1024;

function freeBytes(dir: string): number | undefined {
  try {
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize;
  } catch {
    return undefined;
  }
}
