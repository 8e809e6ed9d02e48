import type { Context } from 'hono';
import { clearSessionCookie } from '../auth/cookie.ts';
import { checkCurrentPassword } from '../auth/current-password.ts';
import type { Session } from '../auth/sessions.ts';
import type { Sql } from '../db/client.ts';
import type { ProxyTrust } from '../http/proxy-trust.ts';
import type { AuthedEnv } from '../http/types.ts';
import type { AccessEvent } from '../sync/peers.ts';

/**
 * [U16] How long after signing in, or after confirming a change with the password, a
 * session may make an Admin's account changes without giving the password again.
 */
export const RECENT_SIGN_IN_MS = 5 * 60 * 1000;

const WRONG_PASSWORD = 'Current password is incorrect.';
export const CONFIRM_WITH_PASSWORD = 'Enter your password to confirm this change.';

export function signedInRecently(session: Session, now = Date.now()): boolean {
  return now - session.authenticatedAt.getTime() < RECENT_SIGN_IN_MS;
}

/** The current-password checks of the account calls ([U13], [U15], [U16]). */
export function passwordGate(sql: Sql, announce: (event: AccessEvent) => Promise<void>, trustProxy: ProxyTrust) {
  /**
   * Undefined when `password` is the user's; else the refusal to answer: 400 on the field
   * (counted on the session), or 401 once the session gave too many wrong ones (it has ended
   * in checkCurrentPassword; its sockets close and its cookie is cleared).
   */
  async function refusePassword(c: Context<AuthedEnv>, password: string | undefined, missing: string): Promise<Response | undefined> {
    const refusal = (message: string) =>
      c.json({ message: `currentPassword: ${message}`, issues: [{ path: 'currentPassword', message }] }, 400);
    if (!password) return refusal(missing);
    const session = c.get('session');
    const check = await checkCurrentPassword(sql, session.id, c.get('user').id, password);
    if (check === 'ok') return undefined;
    if (check === 'wrong') return refusal(WRONG_PASSWORD);
    await announce({ kind: 'signOut', sessionId: session.id });
    clearSessionCookie(c, trustProxy);
    return c.json({ message: 'Unauthorized: too many wrong passwords; this session has ended.' }, 401);
  }

  /**
   * [U16] Undefined when the session signed in (or confirmed with the password) within
   * RECENT_SIGN_IN_MS, or `password` is the user's (which opens that time again and clears the
   * session's wrong ones); else refusePassword's answer.
   */
  async function requireRecentSignIn(c: Context<AuthedEnv>, password: string | undefined): Promise<Response | undefined> {
    if (!password && signedInRecently(c.get('session'))) return undefined;
    const refused = await refusePassword(c, password, CONFIRM_WITH_PASSWORD);
    if (refused) return refused;
    await sql`update sessions set authenticated_at = now(), password_failures = 0 where id = ${c.get('session').id}`;
    return undefined;
  }

  return { refusePassword, requireRecentSignIn };
}
