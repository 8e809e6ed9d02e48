import postgres from 'postgres';
import { startEmbeddedPostgres } from './embedded.ts';
import { migrate } from './migrate.ts';

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;

export type Database = {
  sql: Sql;
  /**
   * True for PGlite, here or behind a URL: one session, so no other instance can share it
   * and LISTEN/NOTIFY does not cross its socket.
   */
  singleSession: boolean;
  close(): Promise<void>;
};

/**
 * The application_name of a running server's connections to a Postgres server: maintenance
 * that needs every server stopped (`npm run rebuild-document`) looks for it in pg_stat_activity.
 */
export const SERVER_APPLICATION_NAME = 'ranch-server';

export type DatabaseOptions =
  /** `max`: pool size (default 10; 1 for a PGlite socket). `applicationName`: SERVER_APPLICATION_NAME unless told. */
  | { url: string; max?: number; applicationName?: string }
  /** `dataDir` undefined: an in-memory database (tests). */
  | { embedded: true; dataDir: string | undefined };

/** Opens Postgres (or embedded PGlite) and applies pending migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const embedded = 'embedded' in options ? await startEmbeddedPostgres(options.dataDir) : undefined;
  const settings = {
    // PGlite is one session: a second pooled connection would deadlock a transaction.
    max: embedded ? 1 : ('url' in options && options.max) || 10,
    onnotice: () => {},
    connect_timeout: 10,
    // Reconnect within 1 s once Postgres is back. postgres.js's default backoff grows with every
    // failed attempt of the pool (3^n/100 s, up to 20 s), so a short outage would keep the
    // server from querying for up to 20 s after it ended (docs/architecture.md "Durability
    // and outages").
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
    // The embedded socket takes one connection: keep it rather than hand the slot back
    // every 30-60 minutes (postgres.js's default lifetime).
    ...(embedded ? { max_lifetime: null } : {}),
    // No JIT compilation: a commit's one statement (log, projection, history, conflicts) is
    // small, but its planner estimates (a guessed row count per JSON array) passed the JIT
    // threshold once it found a conflict, and compiling takes far longer than the query.
    ...(embedded
      ? {}
      : { connection: { jit: 'off', application_name: ('url' in options && options.applicationName) || SERVER_APPLICATION_NAME } }),
  };
  // The embedded database is reached through its unix socket only (embedded.ts).
  const sql = embedded ? postgres({ ...embedded.connection, ...settings }) : postgres((options as { url: string }).url, settings);
  let singleSession = Boolean(embedded);
  try {
    await migrate(sql);
    const [row] = await sql<{ version: string }[]>`select version()`;
    singleSession ||= Boolean(row?.version.includes('PGlite'));
  } catch (error) {
    await sql.end({ timeout: 1 });
    await embedded?.stop();
    throw error;
  }
  return {
    sql,
    singleSession,
    async close() {
      await sql.end({ timeout: 5 });
      await embedded?.stop();
    },
  };
}
