import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import type { DatabaseOptions } from '../../src/db/client.ts';

/**
 * The databases every server test runs against: embedded PGlite always, and the real
 * Postgres of DATABASE_URL when it is set, each test file in a fresh database of its own
 * so runs never collide. Under vitest a fresh database is a copy of the run's migrated, empty
 * template (database-templates.ts); elsewhere it starts empty.
 */
export type TestDatabase = {
  kind: 'pglite' | 'postgres';
  /** Options for `openDatabase`; the same options reopen the same data after a restart. */
  options: DatabaseOptions;
  drop(): Promise<void>;
};

export type TestDatabaseKind = TestDatabase['kind'];

export function databaseKinds(): TestDatabaseKind[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export async function createTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'ranch-test-'));
    const template = process.env.RANCH_TEST_PGLITE_TEMPLATE;
    if (template) cpSync(join(template, 'pg'), join(dataDir, 'pg'), { recursive: true });
    return {
      kind,
      options: { embedded: true, dataDir },
      async drop() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL is not set');
  const name = `ranch_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const template = process.env.RANCH_TEST_POSTGRES_TEMPLATE;
  await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    options: { url: url.toString() },
    async drop() {
      const cleanup = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
