import { startServer, type RunningServer } from '../../src/server.ts';
import { signIn, type ApiClient } from './client.ts';
import { createTestDatabase, type TestDatabaseKind } from './databases.ts';
import { ADMIN } from './server.ts';

export type TwoInstances = { one: RunningServer; two: RunningServer; admin: ApiClient; stop(): Promise<void> };

/**
 * Two server instances on one fresh database (docs/architecture.md "Several instances"),
 * and the Admin signed in through the first. Instances share Postgres, never PGlite (one
 * session), so callers run this where DATABASE_URL is set.
 */
export async function startTwoInstances(kind: TestDatabaseKind): Promise<TwoInstances> {
  const database = await createTestDatabase(kind);
  const options = { database: database.options, port: 0, host: '127.0.0.1', admin: ADMIN };
  const one = await startServer(options);
  const two = await startServer(options);
  return {
    one,
    two,
    admin: await signIn(one.url, ADMIN.email, ADMIN.password),
    async stop() {
      await one.close();
      await two.close();
      await database.drop();
    },
  };
}
