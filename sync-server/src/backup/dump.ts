import type { Writable } from 'node:stream';
import type { Sql } from '../db/client.ts';
import { BackupWriter, FORMAT_VERSION } from './format.ts';
import { ident, LEFT_OUT, listTables, OBJECTS } from './tables.ts';

/** Rows fetched per round trip while reading a table. */
const CURSOR_ROWS = 500;

export type DumpSummary = { rows: Record<string, number>; snapshotMs: number };

/**
 * Writes a backup of the database behind `sql` into `out` (a gzip stream, which it ends).
 *
 * One point in time (docs/backups.md "Consistency"): every table is read in one REPEATABLE
 * READ, READ ONLY transaction, so the log, the snapshot, the projection, the users and the
 * photos' rows are those of one instant, whatever commits meanwhile (on PGlite, one session,
 * nothing else runs during it). Photo bytes alone are read after it, so that transaction does
 * not hold PGlite's only session while megabytes of images are copied: objects never change
 * (docs/architecture.md "Photos"), and each one's bytes are checked against the sha256 the
 * snapshot read, so what is written is exactly the snapshot's; one the clean-up removed
 * meanwhile (no record had named it for days) is left out.
 */
export async function dumpDatabase(sql: Sql, out: Writable): Promise<DumpSummary> {
  const writer = new BackupWriter(out);
  const photos: { id: string; sha256: string; json: string }[] = [];
  const started = performance.now();
  try {
    await sql.begin('isolation level repeatable read read only', async (tx) => {
      await tx`set local bytea_output = 'hex'`;
      // now() is the transaction's start: the instant the backup holds.
      const [{ version, now } = { version: '', now: new Date() }] = await tx<{ version: string; now: Date }[]>`select version(), now()`;
      const migrations = await tx<{ version: number; name: string }[]>`select version, name from schema_migrations order by version`;
      const tables = (await listTables(tx as unknown as Sql)).filter(({ table }) => !LEFT_OUT.has(table));
      await writer.header({
        ranchBackup: FORMAT_VERSION,
        createdAt: now.toISOString(),
        database: version.split(' on ')[0] ?? version,
        migrations: [...migrations],
        tables: tables.map(({ table }) => table),
      });
      for (const { table, columns } of tables) {
        if (table === OBJECTS) {
          const rows = tx<{ id: string; sha256: string; json: string }[]>`
            select id, sha256, (to_jsonb(t) - 'bytes')::text as json from objects t order by id`;
          for (const row of await rows) photos.push({ id: row.id, sha256: row.sha256, json: row.json });
          continue;
        }
        await writer.section({ table, columns });
        const rows = tx.unsafe<{ json: string }[]>(`select to_jsonb(t)::text as json from ${ident(table)} t`);
        for await (const batch of rows.cursor(CURSOR_ROWS)) {
          for (const { json } of batch) await writer.row(json);
        }
      }
      if (tables.some(({ table }) => table === OBJECTS)) {
        await writer.section({ table: OBJECTS, columns: tables.find(({ table }) => table === OBJECTS)?.columns ?? [] });
      }
    });
    const snapshotMs = performance.now() - started;
    for (const photo of photos) {
      // Hex from Postgres itself (what to_jsonb writes for bytea), checked there too.
      const [row] = await sql<{ sha256: string; hex: string }[]>`
        select encode(sha256(bytes), 'hex') as sha256, encode(bytes, 'hex') as hex from objects where id = ${photo.id}`;
      // Removed since the snapshot: only the clean-up deletes photos, and only ones no record
      // had named for days ([I8]), so the backup leaves it out rather than failing.
      if (!row) continue;
      if (row.sha256 !== photo.sha256) throw new Error(`Photo ${photo.id} changed during the backup; take it again`);
      await writer.row(`${photo.json.slice(0, -1)}, "bytes": "\\\\x${row.hex}"}`);
    }
    return { rows: await writer.end(), snapshotMs };
  } catch (error) {
    out.destroy(error as Error);
    throw error;
  }
}
