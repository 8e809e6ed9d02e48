import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Sql } from '../db/client.ts';
import type { AppEnv } from '../http/types.ts';
import { apiError } from '../http/errors.ts';
import { loginInput } from '../../../shared/index.ts';
import { clearSessionCookie, setSessionCookie } from './cookie.ts';
import { loginPage } from './login-page.ts';
import { verifyPassword } from './password.ts';
import { createSession, generateSessionToken, invalidateSession, SESSION_COOKIE } from './sessions.ts';
import { findUserForLogin, toApiUser } from './users.ts';

const INVALID_CREDENTIALS = 'Invalid email or password.';

/** Sign-in, sign-out and the current user (DESIGN.md "Authentication and roles"). */
export function authRoutes(sql: Sql) {
  const app = new Hono<AppEnv>();

  app.get('/login', (c) => (c.get('user') ? c.redirect('/', 303) : c.html(loginPage({}))));

  app.post('/login', async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const parsed = loginInput.safeParse({ email: form.email, password: form.password });
    if (!parsed.success) {
      const email = typeof form.email === 'string' ? form.email : '';
      return c.html(loginPage({ email, error: INVALID_CREDENTIALS }), 401);
    }
    const account = await findUserForLogin(sql, parsed.data.email);
    const ok = await verifyPassword(account?.password_hash ?? null, parsed.data.password);
    if (!account || !ok) return c.html(loginPage({ email: parsed.data.email, error: INVALID_CREDENTIALS }), 401);
    const token = generateSessionToken();
    const session = await createSession(sql, token, account.id);
    setSessionCookie(c, token, session.expiresAt);
    return c.redirect('/', 303);
  });

  app.get('/logout', async (c) => {
    const session = c.get('session');
    if (session) await invalidateSession(sql, session.id);
    if (getCookie(c, SESSION_COOKIE) !== undefined) clearSessionCookie(c);
    return c.redirect('/', 303);
  });

  app.get('/auth/user', (c) => {
    const user = c.get('user');
    if (!user) throw apiError(401, 'Unauthorized');
    return c.json(toApiUser(user));
  });

  return app;
}
