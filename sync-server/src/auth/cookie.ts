import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { isSecureRequest } from '../http/origin.ts';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from './sessions.ts';

/**
 * The session cookie ([A8]): HttpOnly, SameSite=Lax. Over HTTPS (through a trusted proxy)
 * it is `Secure` and named with the `__Host-` prefix, which browsers accept only from a
 * secure origin, for the whole host, never set by a subdomain.
 */
export function setSessionCookie(c: Context, token: string, expiresAt: Date, trustProxy: boolean): void {
  const secure = isSecureRequest(c, trustProxy);
  setCookie(c, secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure,
    path: '/',
    expires: expiresAt,
  });
}

/** The session token the request carries, under either name. */
export function sessionToken(c: Context): string | undefined {
  return getCookie(c, SECURE_SESSION_COOKIE) ?? getCookie(c, SESSION_COOKIE);
}

export function clearSessionCookie(c: Context, trustProxy: boolean): void {
  if (getCookie(c, SESSION_COOKIE) !== undefined) deleteCookie(c, SESSION_COOKIE, { path: '/' });
  if (getCookie(c, SECURE_SESSION_COOKIE) !== undefined || isSecureRequest(c, trustProxy)) {
    deleteCookie(c, SECURE_SESSION_COOKIE, { path: '/', secure: true });
  }
}
