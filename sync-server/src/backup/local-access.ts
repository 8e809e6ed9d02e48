import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  chmodSync,
  createReadStream,
  createWriteStream,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Handler } from 'hono';
import type { Sql } from '../db/client.ts';
import { apiError } from '../http/errors.ts';
import { dumpDatabase } from './dump.ts';

/**
 * How `npm run backup` reaches a running server's embedded PGlite, whose data folder that
 * server holds (docs/backups.md "While the server runs"): at start the server writes
 * `<data>/backup-access.json` (mode 600) with its address and a random token, and answers
 * `GET /api/backup` with `Authorization: Bearer <token>` by streaming a backup. Whoever may
 * read that file may read the whole data folder anyway, so it grants nothing new; nobody
 * else can ask (401), and no account or password is needed in a cron line.
 */
export const ACCESS_FILE = 'backup-access.json';
export const BACKUP_PATH = '/api/backup';

export type BackupAccess = { url: string; token: string };

export function newBackupToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Never stops a start: on a full disk the server runs, and only `npm run backup` cannot reach it. */
export function writeBackupAccess(dataDir: string, access: BackupAccess): void {
  const path = join(dataDir, ACCESS_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify({ ...access, pid: process.pid })}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    console.warn(`Could not write ${path} (${(error as Error).message}): npm run backup cannot reach this server until it restarts`);
  }
}

/** Removes the file if it is still this server's (a newer server may have replaced it). */
export function removeBackupAccess(dataDir: string, token: string): void {
  const access = readBackupAccess(dataDir);
  try {
    if (access?.token === token) rmSync(join(dataDir, ACCESS_FILE), { force: true });
  } catch {} // a stop goes on: the next start replaces the file
}

export function readBackupAccess(dataDir: string): BackupAccess | undefined {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, ACCESS_FILE), 'utf8')) as Partial<BackupAccess>;
    return typeof value.url === 'string' && typeof value.token === 'string' ? { url: value.url, token: value.token } : undefined;
  } catch {
    return undefined;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Backups being put together in the data folder: removed once sent; one a crash left, at a later request. */
const ASSEMBLING = /^\.backup-[0-9a-f]{16}\.tmp$/;
/** Older than this, a backup being put together was left by a crash (another request's may be under way). */
const LEFT_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * `GET /api/backup`: the backup file, for the holder of `token` only (N8). It is written
 * whole to a private file in the data folder first, then sent from there: the dump's
 * transaction, on PGlite the ranch's only connection, never waits on the reader, so a reader
 * that stalls (a hung network share) or never reads holds a file, not the ranch. `HEAD`
 * answers the headers without taking a backup.
 */
export function backupHandler(sql: Sql, token: string, dataDir: string): Handler {
  const expected = digest(`Bearer ${token}`);
  return async (c) => {
    if (!timingSafeEqual(digest(c.req.header('authorization') ?? ''), expected)) throw apiError(401, 'Unauthorized');
    const name = `ranch-backup-${new Date().toISOString().replaceAll(':', '-').slice(0, 19)}Z.jsonl.gz`;
    const headers = {
      'content-type': 'application/gzip',
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
    };
    if (c.req.method === 'HEAD') return new Response(null, { headers });
    removeLeftovers(dataDir);
    const path = join(dataDir, `.backup-${randomBytes(8).toString('hex')}.tmp`);
    try {
      const gzip = createGzip();
      // wx: a new file, never one that was there (and 0600 whatever the umask).
      await Promise.all([dumpDatabase(sql, gzip), pipeline(gzip, createWriteStream(path, { flags: 'wx', mode: 0o600 }))]);
      const file = createReadStream(path);
      await new Promise<void>((resolve, reject) => file.once('open', () => resolve()).once('error', reject));
      return new Response(Readable.toWeb(file) as ReadableStream, {
        headers: { ...headers, 'content-length': String(statSync(path).size) },
      });
    } catch (error) {
      console.error('Backup failed:', error);
      throw apiError(500, 'The backup failed; see the server log');
    } finally {
      // Open (or failed): the name goes now, the bytes once the reader is done (or gone).
      try {
        rmSync(path, { force: true });
      } catch {} // Windows keeps an open file's name: the next request's clean-up removes it
    }
  };
}

function removeLeftovers(dataDir: string): void {
  try {
    for (const entry of readdirSync(dataDir)) {
      const path = join(dataDir, entry);
      if (ASSEMBLING.test(entry) && Date.now() - statSync(path).mtimeMs > LEFT_AFTER_MS) rmSync(path, { force: true });
    }
  } catch {} // the backup itself says what is wrong with the folder
}
