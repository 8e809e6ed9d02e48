import { Hono } from 'hono';
import { clearSessionCookie } from '../auth/cookie.ts';
import { clearPasswordFailures } from '../auth/current-password.ts';
import { invalidateUserSessions } from '../auth/sessions.ts';
import { EmailTakenError, setPassword, toApiUser, updateProfile } from '../auth/users.ts';
import type { Sql } from '../db/client.ts';
import { apiError } from '../http/errors.ts';
import type { ProxyTrust } from '../http/proxy-trust.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import { passwordChangeInput, profileInput } from '../../../shared/index.ts';
import { passwordGate } from './password-gate.ts';
import type { Announce } from './users.ts';

export function emailTaken(error: unknown): never {
  if (error instanceof EmailTakenError) throw apiError(409, error.message, [{ path: 'email', message: error.message }]);
  throw error;
}

/**
 * The signed-in user's own account, any role ([R3]): profile ([U8], [U15]), password
 * ([U13]) and signing out everywhere ([U14]).
 */
export function accountRoutes(sql: Sql, announce: Announce, trustProxy: ProxyTrust) {
  const app = new Hono<AuthedEnv>();

  const { refusePassword } = passwordGate(sql, announce, trustProxy);

  // Names and e-mail only: `role` or anything else in the body is ignored. A new e-mail needs
  // the current password, checked before whether another account has it ([U15]).
  app.put('/auth/user', validate('json', profileInput), async (c) => {
    const { currentPassword, ...profile } = c.req.valid('json');
    if (profile.email !== c.get('user').email) {
      const refused = await refusePassword(c, currentPassword, 'Enter your current password to change your e-mail.');
      if (refused) return refused;
      // The password stays the same, so the count can be cleared now (a password change
      // clears it with the new password: setPassword).
      await clearPasswordFailures(sql, c.get('session').id);
    }
    const user = await updateProfile(sql, c.get('user').id, profile).catch(emailTaken);
    return c.json(toApiUser(user));
  });

  // [U13] The other sessions end (and their sockets close); this one stays.
  app.put('/auth/password', validate('json', passwordChangeInput), async (c) => {
    const { currentPassword, newPassword } = c.req.valid('json');
    const refused = await refusePassword(c, currentPassword, 'Current password is required');
    if (refused) return refused;
    const { id: userId } = c.get('user');
    const sessionId = c.get('session').id;
    await setPassword(sql, userId, newPassword, sessionId);
    await announce({ kind: 'userSessions', userId, exceptSessionId: sessionId });
    return c.body(null, 204);
  });

  // [U14] Every session of the user ends, this one included.
  app.post('/auth/logout-everywhere', async (c) => {
    const userId = c.get('user').id;
    await invalidateUserSessions(sql, userId);
    await announce({ kind: 'userSessions', userId });
    clearSessionCookie(c, trustProxy);
    return c.body(null, 204);
  });

  return app;
}
