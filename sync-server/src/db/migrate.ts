import type postgres from 'postgres';
import { MIGRATIONS } from './migrations.ts';

/**
 * Applies pending migrations in order, each in its own transaction. A lock serialises
 * several instances starting at once against one Postgres.
 */
export async function migrate(sql: postgres.Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(7261001)`;
    await tx`create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`;
    const applied = new Set((await tx<{ version: number }[]>`select version from schema_migrations`).map((row) => row.version));
    for (const migration of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await tx.unsafe(migration.sql);
      await tx`insert into schema_migrations (version, name) values (${migration.version}, ${migration.name})`;
    }
  });
}
