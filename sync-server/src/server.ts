import type { UploadLimits } from './storage/upload-admission.ts';
import { serve } from '@hono/node-server';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { SYNC_CLOSE } from '../../shared/index.ts';
import { createApp } from './app.ts';
import { newBackupToken, removeBackupAccess, writeBackupAccess } from './backup/local-access.ts';
import { purgeEndedSessions } from './auth/sessions.ts';
import { SetupToken } from './auth/setup.ts';
import { ensureAdmin, type AdminBootstrap, type AdminSettings } from './auth/users.ts';
import { openDatabase, type Database, type DatabaseOptions } from './db/client.ts';
import { RequestGate } from './http/request-gate.ts';
import { startPhotoSweeper } from './storage/photo-sweep.ts';
import type { MailSettings } from './mail/settings.ts';
import { DEFAULT_SYNC_LIMITS, type SyncLimits } from './sync/limits.ts';
import { DocumentRegistry } from './sync/registry.ts';

export type ServerOptions = {
  database: DatabaseOptions;
  port: number;
  host: string;
  admin?: AdminSettings | undefined;
  allowedOrigins?: readonly string[];
  webDir?: string;
  /**
   * The reverse proxies whose X-Forwarded-For/-Proto are believed (RANCH_TRUSTED_PROXIES;
   * `true`: one on this machine, RANCH_TRUST_PROXY=1).
   */
  trustProxy?: boolean | readonly string[];
  /** Logged updates between snapshots (default 500). */
  compactEvery?: number;
  /** Per-connection limits of the sync socket (docs/sync-limits.md); defaults for the rest. */
  syncLimits?: Partial<SyncLimits>;
  /** [I7] What one user's photos may take (RANCH_PHOTO_QUOTA_MIB; default 1 GiB). */
  photoQuotaBytes?: number;
  /** Photo uploads in flight at once, per user and in all (default 2 and 4). */
  uploadLimits?: UploadLimits;
  /** [U17] [U18] SMTP for e-mailing account links (RANCH_SMTP_URL, RANCH_MAIL_FROM); absent: not e-mailed. */
  mail?: MailSettings | undefined;
};

export type RunningServer = {
  /** http://host:port of the listening server. */
  url: string;
  port: number;
  db: Database;
  registry: DocumentRegistry;
  /** What the admin bootstrap did (absent without RANCH_ADMIN_EMAIL/RANCH_ADMIN_PASSWORD). */
  admin?: AdminBootstrap;
  /**
   * [A14] The first-run setup address (`<url>/api/setup/<token>`), when the ranch had no
   * Admin at start-up; it works until an Admin exists.
   */
  setupPath?: string;
  /**
   * Graceful stop (docs/architecture.md "Stopping"): refuses new connections and requests,
   * lets those in flight finish, commits and acknowledges what sockets sent, closes them with
   * 1012, then closes the database. Calling it again returns the same stop.
   */
  close(): Promise<void>;
};

/** How long a stop waits for requests in flight, then for sockets to answer their close frame. */
/** [A8] How often ended sessions are deleted. */
const SESSION_PURGE_MS = 60 * 60 * 1000;
const STOP_REQUESTS_MS = 5000;
const STOP_SOCKETS_MS = 1000;

/**
 * permessage-deflate on the sync socket, for large messages only. A new device's first sync
 * is the whole document (tens of megabytes for a large ranch): at level 1 it goes out at a
 * fraction of that, compressed on zlib's thread pool (not the event loop) and inflated
 * quickly on the device; on a phone with one bar of signal that is the difference between
 * seconds and minutes. Small messages (a field edit is ~100 bytes) are
 * sent as they are, so fan-out does not pay for it. Limits (maxPayload) apply to the
 * inflated size. The window sizes are left to the browser's offer: insisting on one would
 * refuse browsers that do not offer it.
 */
const SYNC_COMPRESSION = {
  threshold: 16 * 1024,
  // ws honours a threshold only without context takeover; with it, every message is
  // compressed, which cuts the fan-out bench's throughput to a fraction and gives every
  // connection a compressor of its own. Without context takeover on both sides the fan-out
  // is as fast as the uncompressed reference. Stock ws clients then compress only from 1 KiB;
  // browsers compress every message, each inflated alone. Large messages gain little from
  // the previous ones' context anyway.
  serverNoContextTakeover: true,
  clientNoContextTakeover: true,
  // Level 1: close to level 6's size at a fraction of the time. memLevel 7 halves the hash
  // table a connection keeps once it has received a large message.
  zlibDeflateOptions: { level: 1, memLevel: 7 },
};

/** Opens the database (migrating it), ensures the admin account and listens. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  // The mail library is loaded only by a server that has SMTP settings.
  const mailer = options.mail ? (await import('./mail/link-mail.ts')).linkMailer(options.mail) : undefined;
  const db = await openDatabase(options.database);
  const admin = options.admin ? await ensureAdmin(db.sql, options.admin) : undefined;
  const syncLimits = { ...DEFAULT_SYNC_LIMITS, ...options.syncLimits };
  const registry = new DocumentRegistry(db.sql, {
    // PGlite serves one process (its data folder is locked); Postgres may have other instances.
    alone: db.singleSession,
    ...(options.compactEvery ? { compactEvery: options.compactEvery } : {}),
    encodeMsPerSecond: syncLimits.encodeMsPerSecond,
  });
  await registry.connectPeers();
  const setup = new SetupToken();
  const setupToken = await setup.open(db.sql);
  // `npm run backup` reaches PGlite through this server, which holds its folder (backup/local-access.ts).
  const dataDir = 'embedded' in options.database ? options.database.dataDir : undefined;
  const backupToken = dataDir ? newBackupToken() : undefined;
  const app = createApp({
    sql: db.sql,
    registry,
    allowedOrigins: options.allowedOrigins ?? [],
    trustProxy: options.trustProxy ?? false,
    syncLimits,
    ...(options.webDir ? { webDir: options.webDir } : {}),
    ...(backupToken && dataDir ? { backupToken, dataDir } : {}),
    ...(options.photoQuotaBytes ? { photoQuotaBytes: options.photoQuotaBytes } : {}),
    ...(options.uploadLimits ? { uploadLimits: options.uploadLimits } : {}),
    ...(mailer ? { mailer } : {}),
    setup,
  });
  // [I8] Photos no record names are removed after a grace (one instance at a time).
  const photoSweeper = startPhotoSweeper(db.sql);
  // [A8] Ended sessions are deleted at start and hourly, not only when presented.
  let purging: Promise<unknown> = Promise.resolve();
  const purgeSessions = () => {
    purging = purgeEndedSessions(db.sql).catch((error: unknown) => console.error('Purging sessions failed:', error));
  };
  purgeSessions();
  const sessionPurge = setInterval(purgeSessions, SESSION_PURGE_MS);
  sessionPurge.unref();
  const wss = new WebSocketServer({ noServer: true, maxPayload: syncLimits.maxMessageBytes, perMessageDeflate: SYNC_COMPRESSION });
  const gate = new RequestGate();
  const server = serve({
    fetch: gate.wrap(app.fetch),
    port: options.port,
    hostname: options.host,
    websocket: { server: wss },
  }) as HttpServer;
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  if (dataDir && backupToken) writeBackupAccess(dataDir, { url: `http://${shownHost}:${port}`, token: backupToken });
  let stopping: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    db,
    registry,
    ...(admin ? { admin } : {}),
    ...(setupToken ? { setupPath: `/api/setup/${setupToken}` } : {}),
    close() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve())); // listens no more
        if (dataDir && backupToken) removeBackupAccess(dataDir, backupToken);
        await within(STOP_REQUESTS_MS, gate.stop());
        server.closeIdleConnections();
        await registry.stopConnections();
        // Sockets not (or not yet) a document's subscribers: still opening, or refused.
        const { code, reason } = SYNC_CLOSE.serverRestarting;
        for (const client of wss.clients) if (client.readyState === WebSocket.OPEN) client.close(code, reason);
        await within(STOP_SOCKETS_MS, Promise.all([...wss.clients].map((client) => new Promise((done) => client.once('close', done)))));
        for (const client of wss.clients) client.terminate();
        server.closeAllConnections();
        await closed;
        clearInterval(sessionPurge);
        await purging;
        await photoSweeper.stop();
        await registry.close();
        await db.close();
      })();
      return stopping;
    },
  };
}

/** `promise`, or nothing once `ms` have passed. */
async function within(ms: number, promise: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
