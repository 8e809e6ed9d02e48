import type { Sql, Tx } from '../db/client.ts';
import { MIGRATIONS } from '../db/migrations.ts';
import { BackupFileError, readBackup, verifyBackup } from './format.ts';
import { checkedLedgerRow } from './restored-ledger.ts';
import { checkedPhotoRow } from './restored-photo.ts';
import { ident, LEFT_OUT, listTables, OBJECTS } from './tables.ts';

/** Recorded facts (ledger/), each row checked as a push is. */
const LEDGER = 'ledger';

/** Rows, or bytes of JSON, inserted per statement. */
const BATCH_ROWS = 1000;
const BATCH_CHARS = 8 * 1024 * 1024;

/** The target holds a ranch already, or cannot take this backup; nothing was written. */
export class RestoreRefused extends Error {}

export type RestoreSummary = {
  rows: Record<string, number>;
  createdAt: string;
  replaced: boolean;
  /** What the file held that a backup never does, left out, one sentence each (N4). */
  dropped: string[];
  /** The e-mails of the active Admin accounts restored, for the owner to look over. */
  admins: string[];
};

/**
 * Restores the backup at `path` into the (migrated) database behind `sql` (docs/backups.md
 * "Restore"). The file is checked whole first; the target must be empty — every table but
 * schema_migrations without rows — unless `force`, which empties every table (sessions
 * included: everyone signs in again). Everything is written in one transaction, and the file
 * is checked again while it is read, so a failure leaves the target as it was.
 *
 * The file is untrusted input (its checksum proves it whole, not who wrote it): only the
 * tables and columns a backup holds are taken — a section of a table a backup never holds
 * (sessions, server secrets, sign-in counters, migrations, upload chunks) is left out and
 * said so; a photo whose bytes are not an image, or do not match its size or SHA-256, is
 * left out and said so, and every photo's type is read from its bytes again; the document
 * is checked whole under the sync rules when it is next loaded.
 */
export async function restoreBackup(
  sql: Sql,
  path: string,
  options: { force?: boolean; checked?: Awaited<ReturnType<typeof verifyBackup>> } = {},
): Promise<RestoreSummary> {
  const { header } = options.checked ?? (await verifyBackup(path));
  const known = new Set(MIGRATIONS.map((migration) => migration.version));
  const unknown = header.migrations.filter((migration) => !known.has(migration.version));
  if (unknown.length > 0) {
    throw new RestoreRefused(
      `${path} was taken by a newer Ranch (migrations ${unknown.map((m) => m.version).join(', ')} are unknown here): update Ranch first`,
    );
  }
  const target = new Map((await listTables(sql)).map(({ table, columns }) => [table, columns]));
  const occupied: string[] = [];
  for (const table of target.keys()) {
    if (table === 'schema_migrations') continue;
    const [row] = await sql.unsafe<{ some: boolean }[]>(`select exists (select 1 from ${ident(table)}) as some`);
    if (row?.some) occupied.push(table);
  }
  if (occupied.length > 0 && !options.force) {
    throw new RestoreRefused(
      `The target is not empty (rows in ${occupied.join(', ')}): restore into an empty data folder or database, ` +
        'or add --force to replace everything in it (every server on it stopped first)',
    );
  }
  let createdAt = '';
  const rows: Record<string, number> = {};
  const dropped: string[] = [];
  const droppedRows: Record<string, number> = {};
  let admins: string[] = [];
  await sql.begin(async (tx) => {
    if (options.force && occupied.length > 0) {
      const tables = [...target.keys()].filter((table) => table !== 'schema_migrations');
      await tx.unsafe(`truncate ${tables.map(ident).join(', ')} cascade`);
    }
    let insert: { table: string; names: string } | undefined;
    let skipping: string | undefined;
    let batch: string[] = [];
    let chars = 0;
    const flush = async () => {
      if (!insert || batch.length === 0) return;
      await tx.unsafe(
        `insert into ${ident(insert.table)} (${insert.names})
         select ${insert.names} from jsonb_populate_recordset(null::${ident(insert.table)}, $1::text::jsonb)`,
        [`[${batch.join(',')}]`],
      );
      batch = [];
      chars = 0;
    };
    for await (const line of readBackup(path)) {
      if (line.kind === 'header') createdAt = line.header.createdAt;
      if (line.kind === 'section') {
        await flush();
        const { table, columns } = line.section;
        skipping = undefined;
        if (LEFT_OUT.has(table)) {
          // A backup never holds these: someone added them (a session, a secret) to the file.
          insert = undefined;
          skipping = table;
          droppedRows[table] = 0;
          continue;
        }
        const have = target.get(table);
        const missing = have ? columns.filter((column) => !have.includes(column)) : columns;
        if (!have || missing.length > 0) {
          throw new RestoreRefused(`${path} has ${have ? `columns ${missing.join(', ')} of ` : ''}table ${table}, which this Ranch lacks`);
        }
        // Only the file's columns: a column added by a later migration takes its default.
        insert = { table, names: columns.map(ident).join(', ') };
        rows[table] = 0;
      }
      if (line.kind === 'row' && skipping) droppedRows[skipping] = (droppedRows[skipping] ?? 0) + 1;
      if (line.kind === 'row' && insert) {
        let json = line.json;
        if (insert.table === OBJECTS || insert.table === LEDGER) {
          const checked = insert.table === OBJECTS ? checkedPhotoRow(json) : checkedLedgerRow(json);
          if ('refused' in checked) {
            dropped.push(checked.refused);
            continue;
          }
          json = checked.json;
        }
        batch.push(json);
        chars += json.length;
        rows[insert.table] = (rows[insert.table] ?? 0) + 1;
        if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) await flush();
      }
      if (line.kind === 'end') await flush();
    }
    await advanceSequences(tx);
    // Whatever rules version the file claims, the document is checked whole at its next load.
    if (target.has('docs')) await tx`update docs set checked_rules = 0`;
    if (target.has('users')) {
      const rows = await tx<{ email: string }[]>`select email from users where role = 'Admin' and is_active order by email`;
      admins = rows.map(({ email }) => email);
    }
  });
  if (!createdAt) throw new BackupFileError(`${path} is not a Ranch backup`);
  dropped.unshift(
    ...Object.entries(droppedRows).map(
      ([table, count]) => `Left out table ${table} (${count} row${count === 1 ? '' : 's'}): a Ranch backup never holds it`,
    ),
  );
  return { rows, createdAt, replaced: occupied.length > 0, dropped, admins };
}

/**
 * Sets every column sequence (a `bigserial` id: change_history, conflicts …) past the
 * largest id restored: rows are inserted with their ids, which leaves the sequences where
 * the migration left them, and the next change would take an id that is already there.
 */
async function advanceSequences(tx: Tx): Promise<void> {
  const serials = await tx<{ table: string; column: string; sequence: string }[]>`
    select table_name as table, column_name as column,
      pg_get_serial_sequence(quote_ident(table_name), column_name) as sequence
    from information_schema.columns
    where table_schema = current_schema() and column_default like 'nextval(%'`;
  for (const { table, column, sequence } of serials) {
    if (!sequence) continue;
    await tx.unsafe(`select setval($1::regclass, coalesce((select max(${ident(column)}) from ${ident(table)}), 0) + 1, false)`, [sequence]);
  }
}
