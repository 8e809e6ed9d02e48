import { createTestDatabase, type TestDatabase } from '../../../sync-server/test/support/databases.ts';
import { spawnServer } from '../../../sync-server/test/support/server-process.ts';

export const ADMIN = { email: 'admin@ranch.test', password: 'paddock password' };

export type AppServer = { url: string; database: TestDatabase; stop(): Promise<void> };

/**
 * The product as a user runs it: `node scripts/start.mjs` in its own process, serving the
 * built app from dist/web (or `env.RANCH_WEB_DIR`), on PGlite, or on a fresh database of DATABASE_URL's Postgres.
 */
export async function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  const database = await createTestDatabase(process.env.DATABASE_URL ? 'postgres' : 'pglite');
  const server = await spawnServer(database, { RANCH_ADMIN_EMAIL: ADMIN.email, RANCH_ADMIN_PASSWORD: ADMIN.password, ...env });
  return {
    url: server.url,
    database,
    async stop() {
      await server.kill('SIGTERM');
      await database.drop();
    },
  };
}
