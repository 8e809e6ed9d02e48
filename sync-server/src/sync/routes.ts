import { upgradeWebSocket } from '@hono/node-server';
import { Hono } from 'hono';
import type { WebSocket } from 'ws';
import { closeWith, SYNC_CLOSE, SYNC_LEDGER_PARAM, SYNC_USER_PARAM, type SyncClose } from '../../../shared/index.ts';
import { apiError } from '../http/errors.ts';
import { isAllowedOrigin } from '../http/origin.ts';
import { NO_PROXY, type ProxyTrust } from '../http/proxy-trust.ts';
import type { AppEnv } from '../http/types.ts';
import { awarenessFor } from './awareness.ts';
import { SyncConnection } from './connection.ts';
import type { DocumentHost } from './document-host.ts';
import { ConnectionCounts, DEFAULT_SYNC_LIMITS, fitCloseReason, UserBuckets, type SyncLimits } from './limits.ts';
import { DocumentRegistry } from './registry.ts';

const HEARTBEAT_MS = 30_000;
let nextConnectionId = 1;

/**
 * `GET /api/sync/:doc`: the y-websocket endpoint. Session, Origin and document are checked
 * before anything of the document is sent.
 */
export function syncRoutes(
  registry: DocumentRegistry,
  allowedOrigins: readonly string[],
  limits: SyncLimits = DEFAULT_SYNC_LIMITS,
  trust: ProxyTrust = NO_PROXY,
) {
  const app = new Hono<AppEnv>();
  const counts = new ConnectionCounts(limits);
  const invalidChanges = new UserBuckets(limits.invalidPerMinute / 60, limits.invalidPerMinute);

  app.get('/:doc', async (c, next) => {
    if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') throw apiError(426, 'Upgrade Required: this is a WebSocket endpoint');
    const user = c.get('user');
    const name = c.req.param('doc');
    // Refusals complete the handshake and close at once with a named code and no sync data:
    // browsers see only 1006 for a refused handshake, and the app must tell "signed out"
    // (go to sign-in) from "try again later".
    const refuse = ({ code, reason }: SyncClose) =>
      upgradeWebSocket(() => ({ onOpen: (_event, ws) => ws.close(code, fitCloseReason(reason)) }))(c, next);
    if (!user) return refuse(SYNC_CLOSE.unauthorized);
    const sender = c.req.query(SYNC_USER_PARAM);
    if (sender !== undefined && sender !== user.id) return refuse(SYNC_CLOSE.otherUser);
    if (!isAllowedOrigin(c, allowedOrigins, trust)) return refuse(SYNC_CLOSE.crossOrigin);
    if (!DocumentRegistry.isKnown(name)) return refuse(closeWith(SYNC_CLOSE.unknownDocument, name));
    let host: DocumentHost;
    try {
      host = await registry.get(name);
    } catch {
      return refuse(SYNC_CLOSE.documentUnavailable);
    }
    const options = {
      id: nextConnectionId++,
      userId: user.id,
      sessionId: c.get('session')?.id ?? '',
      canWrite: user.role !== 'Viewer',
      wantsAcks: c.req.query('ack') === '1',
      wantsLedger: c.req.query(SYNC_LEDGER_PARAM) === '1',
      limits,
      invalidChanges,
    };
    let connection: SyncConnection | undefined;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    const upgrade = upgradeWebSocket(() => ({
      onOpen(_event, ws) {
        const raw = ws.raw as WebSocket;
        // Counted when open (synchronously, so concurrent upgrades cannot both pass the cap)
        // and refused before any sync data, like the refusals above.
        if (!counts.admit(options.sessionId, options.userId)) {
          raw.close(SYNC_CLOSE.tooManyConnections.code, SYNC_CLOSE.tooManyConnections.reason);
          return;
        }
        connection = new SyncConnection(
          host,
          awarenessFor(host),
          {
            send: (data, onSent) => raw.send(data, onSent),
            close: (code, reason) => raw.close(code, fitCloseReason(reason)),
            get bufferedAmount() {
              return raw.bufferedAmount;
            },
          },
          options,
        );
        connection.open();
        // [U4] The role and session read again once subscribed (a change may have committed since the upgrade read them).
        void registry.checkConnection(connection).catch(() => {});
        // Phones drop sockets without a close frame; a missed pong ends the connection.
        let alive = true;
        raw.on('pong', () => (alive = true));
        heartbeat = setInterval(() => {
          if (!alive) return raw.terminate();
          alive = false;
          raw.ping();
        }, HEARTBEAT_MS);
      },
      onMessage(event) {
        if (event.data instanceof ArrayBuffer) connection?.receive(new Uint8Array(event.data));
      },
      onClose() {
        clearInterval(heartbeat);
        if (!connection) return;
        connection.close();
        counts.release(options.sessionId, options.userId);
      },
    }));
    return upgrade(c, next);
  });

  return app;
}
