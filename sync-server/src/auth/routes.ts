import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Sql } from '../db/client.ts';
import { NO_PROXY, type ProxyTrust } from '../http/proxy-trust.ts';
import type { AppEnv } from '../http/types.ts';
import { loginInput } from '../../../shared/index.ts';
import { clientAddress } from './client-address.ts';
import { clearSessionCookie, setSessionCookie } from './cookie.ts';
import { knownDevice, setDeviceCookie } from './device-cookie.ts';
import { beginLoginAttempt, loginSucceeded, tooManyAttemptsMessage, type LoginKeys } from './login-limits.ts';
import { loginPage, logoutPage } from './login-page.ts';
import { verifyPassword } from './password.ts';
import { createSession, generateSessionToken, invalidateSession } from './sessions.ts';
import { findUserForLogin } from './users.ts';

const INVALID_CREDENTIALS = 'Invalid email or password.';
/** An e-mail and a password fit many times over; anything bigger is not a sign-in. */
const MAX_LOGIN_FORM_BYTES = 16 * 1024;

export type AuthOptions = {
  /** The trusted proxies: from them, failed sign-ins are counted per X-Forwarded-For address. */
  trustProxy: ProxyTrust;
  /** Called after a session ends, so its open sync connections can be closed. */
  onSignOut?: (sessionId: string) => void;
};

/**
 * Sign-in and sign-out ([A4], [A6]): the only `/api` routes that need no session (besides
 * the sync socket, which refuses one itself). The current user is `GET /api/auth/user` in
 * api/users.ts, behind requireUser.
 */
export function authRoutes(sql: Sql, { trustProxy, onSignOut }: AuthOptions = { trustProxy: NO_PROXY }) {
  const app = new Hono<AppEnv>();

  app.get('/login', (c) => (c.get('user') ? c.redirect('/', 303) : c.html(loginPage({}))));

  const formLimit = bodyLimit({
    maxSize: MAX_LOGIN_FORM_BYTES,
    onError: (c) => c.html(loginPage({ error: 'The sign-in form was too large.' }), 413, { connection: 'close' }),
  });

  app.post('/login', formLimit, async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const parsed = loginInput.safeParse({ email: form.email, password: form.password });
    const typedEmail = parsed.success ? parsed.data.email : typeof form.email === 'string' ? form.email.slice(0, 254) : '';
    const email = parsed.success ? parsed.data.email : undefined;
    const keys: LoginKeys = {
      account: email,
      address: clientAddress(c, trustProxy),
      device: email === undefined ? undefined : await knownDevice(c, sql, email),
    };
    // Counted before the password is checked ([A5]); a refusal costs no password check, for
    // known and unknown accounts alike, so it tells nothing about which exist.
    const retryAfter = await beginLoginAttempt(sql, keys);
    if (retryAfter !== undefined) {
      c.header('retry-after', String(retryAfter));
      return c.html(loginPage({ email: typedEmail, error: tooManyAttemptsMessage(retryAfter) }), 429);
    }
    if (!parsed.success) return c.html(loginPage({ email: typedEmail, error: INVALID_CREDENTIALS }), 401);
    const account = await findUserForLogin(sql, parsed.data.email);
    const ok = await verifyPassword(account?.password_hash ?? null, parsed.data.password);
    if (!account || !ok) return c.html(loginPage({ email: parsed.data.email, error: INVALID_CREDENTIALS }), 401);
    await loginSucceeded(sql, keys);
    const token = generateSessionToken();
    const session = await createSession(sql, token, account.id);
    setSessionCookie(c, token, session.expiresAt, trustProxy);
    // After the session cookie: scripts and tests read the first Set-Cookie as the session.
    await setDeviceCookie(c, sql, parsed.data.email, trustProxy);
    return c.redirect('/', 303);
  });

  // [A6] A GET never signs out (a link or an image on another site could): it asks.
  app.get('/logout', (c) => c.html(logoutPage()));

  // [A6] Behind the Origin check (app.ts checkOrigin), like every state-changing call. A
  // form (the page above, the app without scripts) lands on `/`; the app's fetch gets 204.
  app.post('/logout', async (c) => {
    const session = c.get('session');
    if (session) {
      await invalidateSession(sql, session.id);
      onSignOut?.(session.id);
    }
    clearSessionCookie(c, trustProxy);
    // [A11]: served photos sit in the browser's HTTP cache (immutable), which the page cannot
    // empty; this asks the browser to (HTTPS, or localhost). The app clears the rest itself.
    c.header('clear-site-data', '"cache"');
    return c.req.header('accept')?.includes('text/html') ? c.redirect('/', 303) : c.body(null, 204);
  });

  return app;
}
