import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { isSecureRequest } from '../http/origin.ts';
import type { ProxyTrust } from '../http/proxy-trust.ts';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from './sessions.ts';

/**
 * The session cookie ([A8]): HttpOnly, SameSite=Lax. Over HTTPS (through a trusted proxy)
 * it is `Secure` and named with the `__Host-` prefix, which browsers accept only from a
 * secure origin, for the whole host, never set by a subdomain.
 */
export function setSessionCookie(c: Context, token: string, expiresAt: Date, trustProxy: ProxyTrust): void {
  const secure = isSecureRequest(c, trustProxy);
  setCookie(c, secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure,
    path: '/',
    expires: expiresAt,
  });
}

/**
 * The session token the request carries: over HTTPS only under the `__Host-` name, which
 * nothing but this host over HTTPS can have set (a sibling subdomain or a plain-HTTP answer
 * can set the plain name, even for the whole domain); over plain HTTP the plain name.
 */
export function sessionToken(c: Context, trustProxy: ProxyTrust): string | undefined {
  return getCookie(c, isSecureRequest(c, trustProxy) ? SECURE_SESSION_COOKIE : SESSION_COOKIE);
}

/** Expires the cookie the session was read from (and a plain one sent over HTTPS, which is never read). */
export function clearSessionCookie(c: Context, trustProxy: ProxyTrust): void {
  if (getCookie(c, SESSION_COOKIE) !== undefined) deleteCookie(c, SESSION_COOKIE, { path: '/' });
  if (getCookie(c, SECURE_SESSION_COOKIE) !== undefined || isSecureRequest(c, trustProxy)) {
    deleteCookie(c, SECURE_SESSION_COOKIE, { path: '/', secure: true });
  }
}
