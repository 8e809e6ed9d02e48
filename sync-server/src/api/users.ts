import { Hono } from 'hono';
import { z } from 'zod';
import type { Sql } from '../db/client.ts';
import { requireRole } from '../auth/middleware.ts';
import { changeRole, createUser, listUsers, setPassword, setUserActive, toApiUser } from '../auth/users.ts';
import { apiError } from '../http/errors.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import type { AccessEvent } from '../sync/peers.ts';
import { createUserInput, isUuid, passwordResetInput, role, userActiveInput } from '../../../shared/index.ts';
import { emailTaken } from './account.ts';

const roleInput = z.object({ role });

/** Open sync connections follow an access change on every instance (sync/registry.ts). */
export type Announce = (event: AccessEvent) => Promise<void>;

const NO_SUCH_USER = 'No such user.';

/** Accounts (Admin only), and the signed-in user ([A3], [U4], [U6], [U10]–[U12], [R4], [R5]). */
export function userRoutes(sql: Sql, announce: Announce) {
  const app = new Hono<AuthedEnv>();

  app.get('/users', requireRole('Admin'), async (c) => {
    return c.json((await listUsers(sql)).map(toApiUser));
  });

  app.post('/users', requireRole('Admin'), validate('json', createUserInput), async (c) => {
    const user = await createUser(sql, c.req.valid('json')).catch(emailTaken);
    return c.json(toApiUser(user), 201);
  });

  app.put('/users/:userId/role', requireRole('Admin'), validate('json', roleInput), async (c) => {
    const userId = c.req.param('userId');
    const result = isUuid(userId)
      ? await changeRole(sql, c.get('user').id, userId, c.req.valid('json').role)
      : ({ kind: 'unknown' } as const);
    switch (result.kind) {
      case 'changed':
        await announce({ kind: 'role', userId: result.user.id, role: result.user.role });
        return c.json(toApiUser(result.user));
      case 'own':
        throw apiError(403, 'You cannot change your own role.');
      case 'unknown':
        throw apiError(404, NO_SUCH_USER);
      case 'not-admin':
        throw apiError(403, 'Forbidden: your role may not do this');
    }
  });

  // [U11] Deactivate (every session ends, sockets close with 4401 on every instance) or reactivate.
  app.patch('/users/:userId', requireRole('Admin'), validate('json', userActiveInput), async (c) => {
    const userId = c.req.param('userId');
    const { isActive } = c.req.valid('json');
    const result = isUuid(userId) ? await setUserActive(sql, c.get('user').id, userId, isActive) : ({ kind: 'unknown' } as const);
    switch (result.kind) {
      case 'changed':
        if (!isActive) await announce({ kind: 'userSessions', userId });
        return c.json(toApiUser(result.user));
      case 'own':
        throw apiError(403, 'You cannot deactivate or reactivate your own account.');
      case 'unknown':
        throw apiError(404, NO_SUCH_USER);
      case 'not-admin':
        throw apiError(403, 'Forbidden: your role may not do this');
    }
  });

  // [U12] A new password for someone else; every session of theirs ends.
  app.put('/users/:userId/password', requireRole('Admin'), validate('json', passwordResetInput), async (c) => {
    const userId = c.req.param('userId');
    if (userId === c.get('user').id) {
      throw apiError(403, 'You cannot reset your own password here: change it in your profile with your current password.');
    }
    if (!isUuid(userId) || !(await setPassword(sql, userId, c.req.valid('json').password))) throw apiError(404, NO_SUCH_USER);
    await announce({ kind: 'userSessions', userId });
    return c.body(null, 204);
  });

  // [A3] The signed-in user (a 401 without a session, from requireUser: the app's "signed out").
  app.get('/auth/user', (c) => c.json(toApiUser(c.get('user'))));

  return app;
}
