import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { horseRoutes } from './api/horses.ts';
import { contactRoutes } from './api/contacts.ts';
import { dashboardRoutes } from './api/dashboard.ts';
import { ReadCache } from './api/read-cache.ts';
import { lookupRoutes } from './api/lookups.ts';
import { saleRoutes } from './api/sales.ts';
import { correctionRoutes } from './api/corrections.ts';
import { careRoutes } from './api/care.ts';
import { ledgerRoutes } from './ledger/routes.ts';
import { conflictRoutes } from './api/conflicts.ts';
import { historyRoutes } from './api/history.ts';
import { photoRoutes } from './api/photos.ts';
import { accountRoutes } from './api/account.ts';
import { userRoutes } from './api/users.ts';
import { checkOrigin, loadSession, requireUser } from './auth/middleware.ts';
import { authRoutes } from './auth/routes.ts';
import { linkRoutes } from './auth/link-routes.ts';
import { setupRoutes } from './auth/setup-routes.ts';
import type { SetupToken } from './auth/setup.ts';
import { ranchRoutes } from './api/ranch.ts';
import { BACKUP_PATH, backupHandler } from './backup/local-access.ts';
import type { Sql } from './db/client.ts';
import type { UploadLimits } from './storage/upload-admission.ts';
import { apiError, handleError } from './http/errors.ts';
import { HEALTH_PATH, healthHandler } from './http/health.ts';
import { serveWeb } from './http/static.ts';
import { securityHeaders } from './http/security-headers.ts';
import type { AppEnv, AuthedEnv } from './http/types.ts';
import type { AccessEvent } from './sync/peers.ts';
import type { LinkMailer } from './mail/link-mail.ts';
import type { DocumentRegistry } from './sync/registry.ts';
import { DEFAULT_SYNC_LIMITS, type SyncLimits } from './sync/limits.ts';
import { syncRoutes } from './sync/routes.ts';
import { proxyTrust, type ProxyTrust } from './http/proxy-trust.ts';

const MAX_JSON_BYTES = 2 * 1024 * 1024;
const jsonBodyLimit = bodyLimit({
  maxSize: MAX_JSON_BYTES,
  onError: (c) => c.json({ message: `Payload Too Large: at most ${MAX_JSON_BYTES} bytes` }, 413, { connection: 'close' }),
});

export type AppDeps = {
  sql: Sql;
  registry: DocumentRegistry;
  allowedOrigins: readonly string[];
  webDir?: string;
  /** The reverse proxies whose forwarded headers are believed (proxy-trust.ts): `true` one on this machine. */
  trustProxy?: boolean | readonly string[] | ProxyTrust;
  syncLimits?: SyncLimits;
  /** Embedded PGlite in a data folder: the token of `GET /api/backup` (backup/local-access.ts). */
  backupToken?: string;
  /** The embedded database's data folder: `GET /api/backup` puts the backup together there first. */
  dataDir?: string;
  /** [I7] What one user's photos may take (default 1 GiB). */
  photoQuotaBytes?: number;
  /** Photo uploads in flight at once, per user and in all (storage/upload-admission.ts). */
  uploadLimits?: UploadLimits;
  /** [A14] The first-run setup address's token, while the ranch has no Admin. */
  setup?: SetupToken;
  /** [U17] [U18] E-mails account links (the server has SMTP settings). */
  mailer?: LinkMailer;
};

/** The whole HTTP surface: `/api` (auth, REST, sync socket) and the built PWA. */
export function createApp(deps: AppDeps) {
  const { sql, registry, allowedOrigins, webDir, syncLimits = DEFAULT_SYNC_LIMITS } = deps;
  const trustProxy = proxyTrust(deps.trustProxy ?? false);
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.use('*', securityHeaders());
  // [X7] Before the session and Origin middleware: a container's health check has neither.
  app.get(HEALTH_PATH, healthHandler(sql));
  app.use('/api/*', checkOrigin(allowedOrigins, trustProxy));
  // JSON bodies are small; photos have their own streamed 10 MB limit.
  app.use('/api/*', async (c, next) => (c.req.path.startsWith('/api/objects/upload/') ? next() : jsonBodyLimit(c, next)));
  app.use('/api/*', loadSession(sql, trustProxy));

  // The public part of /api: sign-in and sign-out, and the sync socket, which refuses a
  // missing session itself (after the handshake, with close code 4401: sync/routes.ts).
  app.route(
    '/api',
    authRoutes(sql, { trustProxy, onSignOut: (sessionId) => void registry.announceAccess({ kind: 'signOut', sessionId }) }),
  );
  // [A14] [U17] [U18] The first-run page and the account links: public, each proven by its token.
  if (deps.setup) app.route('/api', setupRoutes({ sql, registry, setup: deps.setup, trustProxy }));
  app.route(
    '/api',
    linkRoutes(sql, { trustProxy, onSessionsEnded: (userId) => void registry.announceAccess({ kind: 'userSessions', userId }) }),
  );
  app.route('/api/sync', syncRoutes(registry, allowedOrigins, syncLimits, trustProxy));
  if (deps.backupToken && deps.dataDir) app.get(BACKUP_PATH, backupHandler(sql, deps.backupToken, deps.dataDir));
  // Everything else answers 401 without a session: the guard is the first middleware of the
  // router that holds those handlers, so each of them runs after it (AuthedEnv holds).
  app.route('/api', signedInRoutes(deps));
  app.all('/api/*', () => {
    throw apiError(404, 'Not Found');
  });

  if (webDir) app.use('*', serveWeb(webDir));
  return app;
}

/**
 * The REST API for signed-in users, guarded by `requireUser` on this router itself. Mounted
 * after the public routes: a public route answers before the guard is reached, and a
 * route added here can only ever be protected.
 */
function signedInRoutes({ sql, registry, allowedOrigins, photoQuotaBytes, uploadLimits, mailer, ...deps }: AppDeps) {
  const trustProxy = proxyTrust(deps.trustProxy ?? false);
  const api = new Hono<AuthedEnv>();
  api.use('*', requireUser);
  const cache = new ReadCache(registry.versions);
  api.route('/', horseRoutes(sql, registry, cache));
  api.route('/', lookupRoutes(sql, registry));
  api.route('/', contactRoutes(sql, registry));
  api.route('/', saleRoutes(sql, registry));
  api.route('/', correctionRoutes(sql, registry));
  api.route('/', careRoutes(sql, registry));
  api.route('/', ledgerRoutes(sql, registry));
  api.route('/', dashboardRoutes(sql, cache));
  api.route('/', historyRoutes(sql));
  api.route('/', conflictRoutes(sql));
  const announce = (event: AccessEvent) => registry.announceAccess(event);
  api.route('/', userRoutes(sql, announce, trustProxy, mailer));
  api.route('/', accountRoutes(sql, announce, trustProxy));
  api.route(
    '/',
    photoRoutes(sql, allowedOrigins, {
      ...(photoQuotaBytes ? { quotaBytes: photoQuotaBytes } : {}),
      ...(uploadLimits ? { uploadLimits } : {}),
    }),
  );
  api.route('/', ranchRoutes(sql));
  return api;
}
