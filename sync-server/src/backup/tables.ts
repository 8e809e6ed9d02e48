import type { Sql } from '../db/client.ts';

/**
 * Tables a backup leaves out (docs/backups.md "What is in it"): `sessions`, so a restore
 * signs everyone out (a sign-out or a role change made after the backup must not be undone
 * by bringing an old session back); `login_attempts`, counters of failed sign-ins that an hour
 * forgets; `server_secrets`, so a backup file cannot sign device cookies (a restore makes new
 * ones); `account_links`, so a restore brings back no invitation or reset link; and
 * `schema_migrations`, which the restore's own migration writes (the file's header names the
 * migrations it was taken at); `upload_chunks`, the bytes of uploads still arriving.
 */
export const LEFT_OUT = new Set(['sessions', 'login_attempts', 'server_secrets', 'account_links', 'schema_migrations', 'upload_chunks']);

/** Photo bytes: read after the snapshot, by id, checked against the snapshot's sha256. */
export const OBJECTS = 'objects';

/** Double-quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Every table of the schema with its columns, parents before the tables whose foreign keys
 * point at them (the order a restore inserts in), `objects` last.
 */
export async function listTables(sql: Sql): Promise<{ table: string; columns: string[] }[]> {
  const columns = await sql<{ table: string; column: string }[]>`
    select c.table_name as table, c.column_name as column
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`;
  const edges = await sql<{ child: string; parent: string }[]>`
    select child.relname as child, parent.relname as parent
    from pg_constraint k
    join pg_class child on child.oid = k.conrelid
    join pg_class parent on parent.oid = k.confrelid
    where k.contype = 'f' and child.relnamespace = current_schema()::regnamespace`;
  const byTable = new Map<string, string[]>();
  for (const { table, column } of columns) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  const parents = new Map<string, Set<string>>();
  for (const { child, parent } of edges) {
    if (child === parent) continue;
    if (parent === OBJECTS) throw new Error(`${child} refers to ${OBJECTS}: backup/dump.ts reads photos after the snapshot, last`);
    parents.set(child, (parents.get(child) ?? new Set()).add(parent));
  }
  const ordered: string[] = [];
  const visit = (table: string, path: string[]) => {
    if (ordered.includes(table)) return;
    if (path.includes(table)) throw new Error(`Foreign keys form a cycle: ${[...path, table].join(' → ')}`);
    for (const parent of [...(parents.get(table) ?? [])].sort()) visit(parent, [...path, table]);
    ordered.push(table);
  };
  for (const table of [...byTable.keys()].sort()) if (table !== OBJECTS) visit(table, []);
  if (byTable.has(OBJECTS)) ordered.push(OBJECTS);
  return ordered.map((table) => ({ table, columns: byTable.get(table) ?? [] }));
}
