import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, realpathSync, rmSync, writeSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * The data folder's lock (docs/architecture.md "Postgres"): one server per folder, because a
 * second process opening PGlite's files silently loses committed rows. The lock is one the
 * kernel drops when its holder dies, however it dies (kill -9, a container stopped), so no
 * stale lock is ever left to clear by hand, and no process id is compared (every container
 * start is pid 1).
 *
 * - `flock`: `<dataDir>/server.lock` is opened here and handed to `flock -n 3` (util-linux,
 *   or busybox), which takes an exclusive flock(2) on that open file and exits. The lock
 *   belongs to the open file, which this process keeps open: it lasts exactly as long as the
 *   server. flock is atomic, knows no pids, works between containers sharing the folder and
 *   (Linux NFS) between machines.
 * - `perl`: the same flock(2) through Perl, for systems without flock(1) (macOS).
 * - `socket`: when neither program exists (Windows, distroless images): a unix socket
 *   `<dataDir>/server.lock.sock` (a named pipe on Windows) that this process listens on. A
 *   second listen fails; a socket file nobody answers on is what a dead server left, and is
 *   replaced.
 *
 * The lock file holds the holder's pid and host name, for the refusal message only.
 */
export type LockMethod = 'flock' | 'perl' | 'socket';

export const LOCK_METHODS: readonly LockMethod[] = ['flock', 'perl', 'socket'];

/** Another live server holds the folder. */
export class DataDirInUseError extends Error {}

export type DataDirLock = {
  method: LockMethod;
  release(): Promise<void>;
};

/** Exit status of the flock programs below when another process holds the lock. */
const HELD = 1;

const FLOCK_PROGRAMS: Record<Exclude<LockMethod, 'socket'>, { command: string; args: string[] }> = {
  // `flock [options] number`: lock the inherited descriptor 3 and exit (util-linux, busybox).
  flock: { command: 'flock', args: ['-n', '-x', '3'] },
  perl: {
    command: 'perl',
    args: ['-MFcntl=:flock', '-e', 'open(my $f, "+<&=", 3) or exit 2; flock($f, LOCK_EX | LOCK_NB) or exit 1; exit 0'],
  },
};

/** Locks `dataDir` (creating it) with the first method this system has; throws DataDirInUseError when held. */
export async function lockDataDir(dataDir: string, methods: readonly LockMethod[] = LOCK_METHODS): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const unavailable: string[] = [];
  for (const method of methods) {
    const lock = method === 'socket' ? await lockWithSocket(dataDir) : lockWithFlock(dataDir, method);
    if (typeof lock !== 'string') return lock;
    unavailable.push(`${method}: ${lock}`);
  }
  throw new Error(`Could not lock the data folder ${dataDir} (${unavailable.join('; ')}).`);
}

/** The lock, or why this method is not available here. */
function lockWithFlock(dataDir: string, method: Exclude<LockMethod, 'socket'>): DataDirLock | string {
  const lockPath = join(dataDir, 'server.lock');
  // Never deleted: a server locking a new file of the same name while another holds the old
  // one would run beside it.
  const fd = openSync(lockPath, constants.O_RDWR | constants.O_CREAT, 0o644);
  const { command, args } = FLOCK_PROGRAMS[method];
  const taken = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe', fd], timeout: 10_000 });
  if (taken.status !== 0) {
    closeSync(fd);
    if (taken.error) return (taken.error as NodeJS.ErrnoException).code === 'ENOENT' ? `no ${command} program` : taken.error.message;
    if (taken.status === HELD) throw inUse(dataDir, readHolder(lockPath));
    return `${command} exited with ${taken.status ?? taken.signal}: ${taken.stderr.toString().trim()}`;
  }
  ftruncateSync(fd, 0);
  writeSync(fd, holderLine(), 0);
  return {
    method,
    async release() {
      closeSync(fd);
    },
  };
}

async function lockWithSocket(dataDir: string): Promise<DataDirLock | string> {
  const path =
    process.platform === 'win32'
      ? `\\\\.\\pipe\\ranch-${createHash('sha256').update(realpathSync(dataDir).toLowerCase()).digest('hex').slice(0, 32)}`
      : join(dataDir, 'server.lock.sock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const server = await listen(path);
      const fd = openSync(join(dataDir, 'server.lock'), 'w');
      writeSync(fd, holderLine());
      closeSync(fd);
      return {
        method: 'socket',
        release: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EADDRINUSE') return `cannot listen on ${path}: ${(error as Error).message}`;
      if (await answers(path)) throw inUse(dataDir, readHolder(join(dataDir, 'server.lock')));
      // Nobody listens: the server that bound it died. (Named pipes vanish with their holder.)
      if (process.platform !== 'win32') rmSync(path, { force: true });
    }
  }
  return `${path} stays in use`;
}

function listen(path: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      server.unref();
      resolve(server);
    });
  });
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function holderLine(): string {
  return `pid ${process.pid} on ${hostname()}\n`;
}

function readHolder(lockPath: string): string {
  try {
    return readFileSync(lockPath, 'utf8').trim();
  } catch {
    return '';
  }
}

function inUse(dataDir: string, holder: string): DataDirInUseError {
  return new DataDirInUseError(
    `The data folder ${dataDir} is in use by another Ranch server${holder ? ` (${holder})` : ''}. ` +
      'Stop that server first, or set RANCH_DATA_DIR to another folder.',
  );
}
