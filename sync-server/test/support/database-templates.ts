import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { openDatabase } from '../../src/db/client.ts';

/**
 * Vitest's global setup for the projects that open test databases: one migrated, empty
 * database per run, which every test database then starts as a copy of (databases.ts), instead
 * of each running PGlite's initdb and every migration again. The template is made the way a
 * server makes a new database (`openDatabase`), so that path still runs in every run.
 *
 * Its names reach the test files through the environment: `RANCH_TEST_PGLITE_TEMPLATE`, a data
 * folder whose `pg` holds the database; `RANCH_TEST_POSTGRES_TEMPLATE`, a database of
 * DATABASE_URL's Postgres, when that is set. Both go again when the run ends. A second
 * project's setup in the same run finds them made.
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.RANCH_TEST_PGLITE_TEMPLATE) return async () => {};
  const folder = mkdtempSync(join(tmpdir(), 'ranch-template-'));
  const pglite = await openDatabase({ embedded: true, dataDir: folder });
  await pglite.close();
  process.env.RANCH_TEST_PGLITE_TEMPLATE = folder;

  const adminUrl = process.env.DATABASE_URL;
  const name = `ranch_template_${process.pid}_${Date.now()}`;
  if (adminUrl) {
    await onPostgres(adminUrl, (admin) => admin.unsafe(`create database ${name}`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const template = await openDatabase({ url: url.toString(), max: 1 });
    await template.close();
    process.env.RANCH_TEST_POSTGRES_TEMPLATE = name;
  }

  return async () => {
    rmSync(folder, { recursive: true, force: true });
    delete process.env.RANCH_TEST_PGLITE_TEMPLATE;
    if (adminUrl) {
      await onPostgres(adminUrl, (admin) => admin.unsafe(`drop database if exists ${name} with (force)`));
      delete process.env.RANCH_TEST_POSTGRES_TEMPLATE;
    }
  };
}

async function onPostgres(url: string, run: (admin: postgres.Sql) => Promise<unknown>): Promise<void> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await run(admin);
  } finally {
    await admin.end();
  }
}
