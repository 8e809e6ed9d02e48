import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import postgres from 'postgres';
import { openDatabase } from '../db/client.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { dumpDatabase } from './dump.ts';
import { verifyBackup } from './format.ts';
import { BACKUP_PATH, readBackupAccess } from './local-access.ts';
import { restoreBackup, type RestoreSummary } from './restore.ts';

/** A backup that could not be taken, said in a sentence. */
export class BackupFailed extends Error {}

/** Where the ranch is: a Postgres URL, or an embedded PGlite data folder (env.ts). */
export type Source = { databaseUrl: string | undefined; dataDir: string };

/**
 * The file holds password hashes: readable by its owner only. `wx` makes a new file, never
 * opening one that was there (N11): a `FILE.partial` someone left or planted (0644, or a
 * symbolic link) would keep its own mode and owner, and the backup would become theirs.
 */
function privateFile(path: string) {
  rmSync(path, { force: true }); // a left file, or the link itself (never what it points to)
  return createWriteStream(path, { flags: 'wx', mode: 0o600 });
}

export type BackupResult = { file: string; bytes: number; rows: Record<string, number>; via: string };

export function defaultBackupName(now = new Date()): string {
  return `ranch-backup-${now.toISOString().replaceAll(':', '-').slice(0, 19)}Z.jsonl.gz`;
}

/**
 * `npm run backup [FILE]` (docs/backups.md): from DATABASE_URL directly; from a data folder a
 * running server holds, through that server (`GET /api/backup`); from a folder no server
 * holds, by opening it (locked meanwhile). Written to `FILE.partial`, checked whole, then
 * renamed to FILE: a FILE that exists is a complete, intact backup.
 */
export async function takeBackup(source: Source, file = defaultBackupName()): Promise<BackupResult> {
  const target = resolve(file);
  const partial = `${target}.partial`;
  mkdirSync(dirname(target), { recursive: true });
  let via: string;
  try {
    if (source.databaseUrl) {
      via = 'DATABASE_URL';
      const sql = postgres(source.databaseUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
      try {
        await dumpTo(sql, partial);
      } finally {
        await sql.end({ timeout: 5 });
      }
    } else {
      via = await backupDataDir(source.dataDir, partial);
    }
    const { rows } = await verifyBackup(partial);
    renameSync(partial, target);
    return { file: target, bytes: statSync(target).size, rows, via };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

async function dumpTo(sql: postgres.Sql, path: string): Promise<void> {
  const gzip = createGzip();
  await Promise.all([dumpDatabase(sql, gzip), pipeline(gzip, privateFile(path))]);
}

async function backupDataDir(dataDir: string, partial: string): Promise<string> {
  if (!existsSync(join(dataDir, 'pg'))) {
    throw new BackupFailed(`No ranch in ${dataDir} (it has no pg folder): set RANCH_DATA_DIR, or DATABASE_URL`);
  }
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  try {
    embedded = await startEmbeddedPostgres(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    await backupThroughServer(dataDir, partial);
    return 'the running server';
  }
  // Read only: no migration, so a backup never changes the folder it copies.
  const sql = postgres({ ...embedded.connection, max: 1, onnotice: () => {} });
  try {
    await dumpTo(sql, partial);
  } finally {
    await sql.end({ timeout: 5 });
    await embedded.stop();
  }
  return 'the folder itself (no server held it)';
}

async function backupThroughServer(dataDir: string, partial: string): Promise<void> {
  const access = readBackupAccess(dataDir);
  if (!access) {
    throw new BackupFailed(
      `A server holds ${dataDir} but left no backup-access.json there (an older Ranch?): restart it, or stop it first`,
    );
  }
  const response = await fetch(`${access.url}${BACKUP_PATH}`, { headers: { authorization: `Bearer ${access.token}` } }).catch(
    (error: Error) => {
      throw new BackupFailed(`The server holding ${dataDir} does not answer at ${access.url}: ${error.message}`);
    },
  );
  if (response.status !== 200 || !response.body) {
    throw new BackupFailed(`The server holding ${dataDir} refused the backup: ${response.status} ${await response.text()}`);
  }
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), privateFile(partial));
}

/**
 * `npm run restore FILE [--force]`: into DATABASE_URL, or into the data folder (locked, so
 * never under a running server), migrated first; refused unless empty (or `force`).
 */
export async function restoreInto(source: Source, file: string, options: { force?: boolean } = {}): Promise<RestoreSummary> {
  const path = resolve(file);
  const checked = await verifyBackup(path); // before a database is created or opened
  const db = await openDatabase(source.databaseUrl ? { url: source.databaseUrl, max: 1 } : { embedded: true, dataDir: source.dataDir });
  try {
    return await restoreBackup(db.sql, path, { ...options, checked });
  } finally {
    await db.close();
  }
}
