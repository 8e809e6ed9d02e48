import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { SOCKET_FILE, startEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded.ts';

/** The inodes of the TCP sockets this process listens on (Linux /proc; state 0A is LISTEN). */
function listeningTcpInodes(): Set<string> {
  const own = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
      if (match?.[1]) own.add(match[1]);
    } catch {
      // The descriptor closed while we looked.
    }
  }
  const listening = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [state, inode] = [fields[3], fields[9]];
      if (state === '0A' && inode && own.has(inode)) listening.add(inode);
    }
  }
  return listening;
}

const mode = (path: string) => statSync(path).mode & 0o777;

/**
 * [X6] The embedded database (PGlite, which checks no password) is reachable by this
 * server's user only: a unix socket in a 0700 folder, and no TCP port any local user could
 * connect to (before, a loopback port gave anyone on the machine the whole ranch).
 */
describe('the embedded database is reachable by this server only [X6]', () => {
  const folders: string[] = [];
  let embedded: EmbeddedPostgres | undefined;
  afterEach(async () => {
    await embedded?.stop();
    embedded = undefined;
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  const newParent = () => {
    const parent = mkdtempSync(join(tmpdir(), 'ranch-socket-'));
    folders.push(parent);
    return parent;
  };

  it('[X6] listens on no TCP port, only on a socket in a 0700 folder of the data folder, and answers there', async () => {
    const dataDir = join(newParent(), 'data');
    const before = listeningTcpInodes();
    embedded = await startEmbeddedPostgres(dataDir);
    const opened = [...listeningTcpInodes()].filter((inode) => !before.has(inode));
    expect(opened).toEqual([]);

    expect(embedded.socketPath).toBe(join(dataDir, 'run', SOCKET_FILE));
    expect(mode(join(dataDir, 'run'))).toBe(0o700);
    expect(mode(embedded.socketPath)).toBe(0o600);
    expect(mode(dataDir)).toBe(0o700);

    const sql = postgres({ ...embedded.connection, max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ answer: number }[]>`select 41 + 1 as answer`;
      expect(row?.answer).toBe(42);
    } finally {
      await sql.end({ timeout: 5 });
    }
  }, 120_000);

  it('[X6] makes an existing socket folder private again and replaces a socket file a killed server left', async () => {
    const dataDir = join(newParent(), 'data');
    mkdirSync(join(dataDir, 'run'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, 'run', SOCKET_FILE), 'left by a killed server');
    embedded = await startEmbeddedPostgres(dataDir);
    expect(mode(join(dataDir, 'run'))).toBe(0o700);
    expect(statSync(embedded.socketPath).isSocket()).toBe(true);
    await embedded.stop();
    embedded = undefined;
    expect(existsSync(join(dataDir, 'run', SOCKET_FILE))).toBe(false);
  }, 120_000);

  it("N2: a data folder made 0755 by an older Ranch, with files PGlite wrote 0666, is this user's alone after a start", async () => {
    const dataDir = join(newParent(), 'data');
    // As an install begun by an older Ranch left it: its first start made the folders 0755, and PGlite wrote 0666.
    embedded = await startEmbeddedPostgres(dataDir);
    await embedded.stop();
    embedded = undefined;
    const everything = (folder: string): string[] =>
      readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
        const path = join(folder, entry.name);
        return entry.isDirectory() ? [path, ...everything(path)] : [path];
      });
    chmodSync(dataDir, 0o755);
    for (const path of everything(join(dataDir, 'pg'))) chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o666);
    const open = () => everything(join(dataDir, 'pg')).filter((path) => (statSync(path).mode & 0o077) !== 0);
    expect(open().length).toBeGreaterThan(100);

    embedded = await startEmbeddedPostgres(dataDir);
    expect(mode(dataDir)).toBe(0o700);
    expect(open()).toEqual([]);
    // Files the database writes from now on are private too.
    const sql = postgres({ ...embedded.connection, max: 1, onnotice: () => {} });
    try {
      await sql`create table written_after_start (text text)`;
      await sql`insert into written_after_start select repeat('x', 1000) from generate_series(1, 20000)`;
      await sql`checkpoint`;
    } finally {
      await sql.end({ timeout: 5 });
    }
    expect(open()).toEqual([]);
  }, 120_000);

  it('[X6] without a data folder (or with one too deep for a socket path) uses a private temporary folder, removed at stop', async () => {
    const deep = join(newParent(), 'a'.repeat(60), 'b'.repeat(60));
    for (const dataDir of [undefined, deep]) {
      embedded = await startEmbeddedPostgres(dataDir);
      const folder = dirname(embedded.socketPath);
      expect(folder.startsWith(tmpdir())).toBe(true);
      expect(mode(folder)).toBe(0o700);
      await embedded.stop();
      embedded = undefined;
      expect(existsSync(folder)).toBe(false);
    }
  }, 120_000);
});
