import type { MiddlewareHandler } from 'hono';
import type { Sql } from '../db/client.ts';
import { apiError } from '../http/errors.ts';
import { isAllowedOrigin, isForeignWithoutOrigin } from '../http/origin.ts';
import type { ProxyTrust } from '../http/proxy-trust.ts';
import type { AppEnv, AuthedEnv } from '../http/types.ts';
import { SENDER_HEADER, type Role } from '../../../shared/index.ts';
import { validateSessionToken } from './sessions.ts';
import { sessionToken, setSessionCookie } from './cookie.ts';

/** Reads the session cookie, if any, into `user`/`session`; never rejects by itself. */
export function loadSession(sql: Sql, trustProxy: ProxyTrust): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = sessionToken(c, trustProxy);
    const result = token ? await validateSessionToken(sql, token) : null;
    c.set('user', result?.user ?? null);
    c.set('session', result?.session ?? null);
    if (token && result?.renewed) setSessionCookie(c, token, result.session.expiresAt, trustProxy);
    await next();
  };
}

/**
 * 401 without a session. The app treats a 401 as signed out ([X3], [A7]). Also 401 when the
 * request names its sender (SENDER_HEADER: a device sending a user's stored photos) and the
 * session is another user's ([A12]).
 */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = c.get('user');
  if (!user) throw apiError(401, 'Unauthorized');
  const sender = c.req.header(SENDER_HEADER);
  if (sender !== undefined && sender !== user.id) throw apiError(401, 'Unauthorized: signed in as another user');
  await next();
};

export function requireRole(...roles: Role[]): MiddlewareHandler<AuthedEnv> {
  return async (c, next) => {
    if (!roles.includes(c.get('user').role)) throw apiError(403, 'Forbidden: your role may not do this');
    await next();
  };
}

/** Roles that may change ranch data; a Viewer only reads. */
export const requireWriter = requireRole('Admin', 'Staff');

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** CSRF: a state-changing request from a foreign Origin is refused, JSON and forms alike. */
export function checkOrigin(allowedOrigins: readonly string[], trust: ProxyTrust): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method) && (!isAllowedOrigin(c, allowedOrigins, trust) || isForeignWithoutOrigin(c))) {
      throw apiError(403, 'Forbidden: cross-origin request');
    }
    await next();
  };
}
