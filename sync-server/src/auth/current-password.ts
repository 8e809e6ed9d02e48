import type { Sql } from '../db/client.ts';
import { verifyPassword } from './password.ts';
import { invalidateSession } from './sessions.ts';

/**
 * Wrong current passwords a session may give ([U13], [U15]) before it ends: someone who
 * found a computer left signed in gets this many guesses, then has to sign in.
 */
export const MAX_PASSWORD_FAILURES = 5;

export type PasswordCheck = 'ok' | 'wrong' | 'signed-out';

/**
 * Checks the password of the session's user. Each attempt is counted on the session before
 * the password is compared, so requests sent all at once cannot get more comparisons than
 * the limit. At the limit the session is deleted ('signed-out'; the caller closes its
 * sockets and answers 401). A right password does not clear the count here: the caller
 * clears it with the change the password allowed (setPassword stores the new password and
 * the cleared count in one transaction). Cleared any sooner, requests sent with the old
 * password at the same moment would be compared with it again, one after another, until
 * the new one is stored.
 */
export async function checkCurrentPassword(sql: Sql, sessionId: string, userId: string, password: string): Promise<PasswordCheck> {
  const [counted] = await sql<{ password_failures: number; password_hash: string | null }[]>`
    update sessions s set password_failures = s.password_failures + 1
    from users u
    where s.id = ${sessionId} and u.id = s.user_id and u.id = ${userId}
    returning s.password_failures, u.password_hash`;
  if (!counted) return 'signed-out';
  if (counted.password_failures <= MAX_PASSWORD_FAILURES && (await verifyPassword(counted.password_hash, password))) return 'ok';
  if (counted.password_failures < MAX_PASSWORD_FAILURES) return 'wrong';
  await invalidateSession(sql, sessionId);
  return 'signed-out';
}

/** A right password was given and its change made: the session's wrong ones are forgotten. */
export async function clearPasswordFailures(sql: Sql, sessionId: string): Promise<void> {
  await sql`update sessions set password_failures = 0 where id = ${sessionId}`;
}
