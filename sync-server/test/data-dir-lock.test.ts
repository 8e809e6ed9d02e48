import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir, type LockMethod } from '../src/db/data-dir-lock.ts';
import { createdId, signIn } from './support/client.ts';
import { createTestDatabase, type TestDatabase } from './support/databases.ts';
import { ADMIN } from './support/server.ts';
import { spawnServer, type ServerProcess } from './support/server-process.ts';
import { cleanupsAfterEach } from './support/cleanups.ts';

// The data folder's lock (src/db/data-dir-lock.ts, docs/architecture.md "Postgres"): embedded
// PGlite only, as a DATABASE_URL server has no data folder.
const ENV = { RANCH_ADMIN_EMAIL: ADMIN.email, RANCH_ADMIN_PASSWORD: ADMIN.password };

/** `unshare --pid --fork --mount-proc` where it works (root, or user namespaces allowed); null where it does not. */
function pidNamespace(): string[] | null {
  const wrapper = ['unshare', '--pid', '--fork', '--mount-proc'];
  const probe = spawnSync(wrapper[0]!, [...wrapper.slice(1), 'true'], { stdio: 'ignore' });
  return probe.status === 0 ? wrapper : null;
}

/** The pids of `parent`'s children (Linux /proc). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid …; comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

describe('the data folder lock', () => {
  const { defer } = cleanupsAfterEach();
  async function folder(): Promise<TestDatabase> {
    const database = await createTestDatabase('pglite');
    defer(() => database.drop());
    return database;
  }
  async function start(database: TestDatabase, wrapper: string[] = []): Promise<ServerProcess> {
    const server = await spawnServer(database, ENV, wrapper);
    defer(() => server.kill('SIGKILL'));
    return server;
  }

  it('[Y9] refuses a second server on the same folder while the first lives, and lets one start once it has stopped', async () => {
    const database = await folder();
    const first = await start(database);
    await expect(spawnServer(database, ENV)).rejects.toThrow(
      /The data folder .* is in use by another Ranch server \(pid \d+ on .*\)\. Stop that server first/,
    );
    // The first one is untouched by the attempt.
    expect((await fetch(`${first.url}/api/login`)).status).toBeLessThan(500);

    await first.kill('SIGTERM');
    expect(first.exit()).toBe(0);
    const second = await start(database);
    expect((await fetch(`${second.url}/api/login`)).status).toBeLessThan(500);
  }, 90_000);

  const namespace = pidNamespace();
  const where = namespace ? 'as pid 1 of a fresh PID namespace (unshare)' : 'WITHOUT a PID namespace (unshare --pid is not permitted here)';
  it(`[Y9] a server killed with -9 ${where} starts again on the same folder, with its data`, async () => {
    if (!namespace) console.warn('unshare --pid --fork is not permitted here: the kill -9 and restart run without a PID namespace');
    const database = await folder();
    const dataDir = (database.options as { dataDir: string }).dataDir;
    const wrapper = namespace ?? [];
    const first = await start(database, wrapper);
    // Inside the namespace the server is pid 1, as in a container: the pid a lock file names
    // is the pid the next start gets again.
    if (namespace) expect(readFileSync(join(dataDir, 'server.lock'), 'utf8')).toMatch(/^pid 1 on /);

    const admin = await signIn(first.url, ADMIN.email, ADMIN.password);
    const horse = await createdId(admin, '/api/horses', {
      name: 'Survives kill -9',
      breedId: await createdId(admin, '/api/breeds', { name: 'Shire' }),
      colorId: await createdId(admin, '/api/colors', { name: 'Black' }),
      genderId: await createdId(admin, '/api/genders', { name: 'Gelding' }),
    });

    // kill -9 the server itself (the namespace's pid 1), not the unshare around it.
    const [serverPid] = namespace ? childrenOf(first.pid) : [first.pid];
    expect(serverPid).toBeDefined();
    process.kill(serverPid!, 'SIGKILL');
    await first.kill('SIGKILL'); // waits for the wrapper to end too
    if (!namespace) expect(first.exit()).toBe('SIGKILL');

    const second = await start(database, wrapper);
    const again = await signIn(second.url, ADMIN.email, ADMIN.password);
    const horses = (await (await again.request('/api/horses')).json()) as { id: string; name: string }[];
    expect(horses).toContainEqual(expect.objectContaining({ id: horse, name: 'Survives kill -9' }));
  }, 90_000);

  describe.each<LockMethod>(['flock', 'perl', 'socket'])('taken with %s', (method) => {
    function dir(): string {
      const path = mkdtempSync(join(tmpdir(), 'ranch-lock-'));
      defer(() => rmSync(path, { recursive: true, force: true }));
      return path;
    }

    it('[Y9] is held until released, then free again', async () => {
      const dataDir = dir();
      const lock = await lockDataDir(dataDir, [method]);
      expect(lock.method).toBe(method);
      await expect(lockDataDir(dataDir, [method])).rejects.toThrow(DataDirInUseError);
      await expect(lockDataDir(dataDir, [method])).rejects.toThrow(`(pid ${process.pid} on `);
      await lock.release();
      const again = await lockDataDir(dataDir, [method]);
      await again.release();
    });

    it('[Y9] is free once its holder died by kill -9', async () => {
      const dataDir = dir();
      const modulePath = join(import.meta.dirname, '../src/db/data-dir-lock.ts');
      // A process that takes the lock and waits: node with tsx, as the server runs.
      const script = `const { lockDataDir } = await import(${JSON.stringify(modulePath)}); await lockDataDir(${JSON.stringify(dataDir)}, [${JSON.stringify(method)}]); console.log('locked'); setInterval(() => {}, 1000);`;
      const holder = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      defer(() => void holder.kill('SIGKILL'));
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
        holder.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
      });
      await expect(lockDataDir(dataDir, [method])).rejects.toThrow(DataDirInUseError);
      const exited = new Promise((done) => holder.once('exit', done));
      holder.kill('SIGKILL');
      await exited;
      const lock = await lockDataDir(dataDir, [method]);
      await lock.release();
    });
  });
});
