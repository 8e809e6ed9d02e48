import type { AdminSettings } from '../../src/auth/users.ts';
import type { MailSettings } from '../../src/mail/settings.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import type { UploadLimits } from '../../src/storage/upload-admission.ts';
import type { SyncLimits } from '../../src/sync/limits.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from './databases.ts';

export const ADMIN = { email: 'admin@ranch.test', password: 'correct horse battery' };

export type TestServer = RunningServer & {
  database: TestDatabase;
  /** Restarts the server process state on the same database (a fresh in-memory document), with the same options unless given. */
  restart(options?: TestServerOptions): Promise<TestServer>;
  /** Stops the server and drops its database. */
  destroy(): Promise<void>;
};

export type TestServerOptions = {
  compactEvery?: number;
  syncLimits?: Partial<SyncLimits>;
  webDir?: string;
  trustProxy?: boolean | readonly string[];
  photoQuotaBytes?: number;
  /** The admin settings ([A9]); ADMIN unless given. */
  admin?: AdminSettings;
  uploadLimits?: UploadLimits;
  /** No admin settings at all: a ranch set up by its first-run page ([A14]). */
  noAdmin?: boolean;
  /** [U17] [U18] SMTP settings: account links are e-mailed. */
  mail?: MailSettings;
};

/** Starts a server on an existing test database (after a stop, or a maintenance command run on it). */
export async function startTestServerOn(database: TestDatabase, options: TestServerOptions = {}): Promise<TestServer> {
  const { noAdmin, ...rest } = options;
  const server = await startServer({
    database: database.options,
    port: 0,
    host: '127.0.0.1',
    ...(noAdmin ? {} : { admin: ADMIN }),
    ...rest,
  });
  return {
    ...server,
    database,
    async restart(next = options) {
      await server.close();
      return startTestServerOn(database, next);
    },
    async destroy() {
      await server.close();
      await database.drop();
    },
  };
}

export async function startTestServer(kind: TestDatabaseKind, options: TestServerOptions = {}): Promise<TestServer> {
  return startTestServerOn(await createTestDatabase(kind), options);
}
