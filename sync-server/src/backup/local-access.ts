import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
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

/** `GET /api/backup`: the backup file, streamed, for the holder of `token` only. */
export function backupHandler(sql: Sql, token: string): Handler {
  const expected = digest(`Bearer ${token}`);
  return (c) => {
    if (!timingSafeEqual(digest(c.req.header('authorization') ?? ''), expected)) throw apiError(401, 'Unauthorized');
    const gzip = createGzip();
    dumpDatabase(sql, gzip).catch((error: unknown) => {
      console.error('Backup failed:', error);
    });
    const name = `ranch-backup-${new Date().toISOString().replaceAll(':', '-').slice(0, 19)}Z.jsonl.gz`;
    return new Response(Readable.toWeb(gzip) as ReadableStream, {
      headers: {
        'content-type': 'application/gzip',
        'content-disposition': `attachment; filename="${name}"`,
        'cache-control': 'no-store',
      },
    });
  };
}
