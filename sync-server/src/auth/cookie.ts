import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { isSecureRequest } from '../http/origin.ts';
import { SESSION_COOKIE } from './sessions.ts';

export function setSessionCookie(c: Context, token: string, expiresAt: Date): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isSecureRequest(c),
    path: '/',
    expires: expiresAt,
  });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isSecureRequest(c) });
}
