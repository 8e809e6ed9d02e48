import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { createApp } from './app.ts';
import { ensureAdmin } from './auth/users.ts';
import { openDatabase, type Database, type DatabaseOptions } from './db/client.ts';
import { DocumentRegistry } from './sync/registry.ts';

export type ServerOptions = {
  database: DatabaseOptions;
  port: number;
  host: string;
  admin?: { email: string; password: string } | undefined;
  allowedOrigins?: readonly string[];
  webDir?: string;
  /** Count failed sign-ins per X-Forwarded-For address (RANCH_TRUST_PROXY). */
  trustProxy?: boolean;
  /** Logged updates between snapshots (default 500). */
  compactEvery?: number;
};

export type RunningServer = {
  /** http://host:port of the listening server. */
  url: string;
  port: number;
  db: Database;
  registry: DocumentRegistry;
  close(): Promise<void>;
};

/** Opens the database (migrating it), ensures the admin account and listens. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const db = await openDatabase(options.database);
  if (options.admin) await ensureAdmin(db.sql, options.admin);
  const registry = new DocumentRegistry(db.sql, {
    // PGlite serves one process (its data folder is locked); Postgres may have other instances.
    alone: db.singleSession,
    ...(options.compactEvery ? { compactEvery: options.compactEvery } : {}),
  });
  await registry.connectPeers();
  const app = createApp({
    sql: db.sql,
    registry,
    allowedOrigins: options.allowedOrigins ?? [],
    trustProxy: options.trustProxy ?? false,
    ...(options.webDir ? { webDir: options.webDir } : {}),
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  const server = serve({ fetch: app.fetch, port: options.port, hostname: options.host, websocket: { server: wss } });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    db,
    registry,
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await registry.close();
      await db.close();
    },
  };
}
