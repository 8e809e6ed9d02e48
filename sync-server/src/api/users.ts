import { Hono } from 'hono';
import { z } from 'zod';
import type { Sql } from '../db/client.ts';
import { requireRole } from '../auth/middleware.ts';
import { changeRole, createUser, EmailTakenError, listUsers, toApiUser, updateProfile } from '../auth/users.ts';
import { apiError } from '../http/errors.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import { createUserInput, isUuid, profileInput, role, type Role } from '../../../shared/index.ts';

const roleInput = z.object({ role });

function emailTaken(error: unknown): never {
  if (error instanceof EmailTakenError) throw apiError(409, error.message, [{ path: 'email', message: error.message }]);
  throw error;
}

/** Accounts (Admin only), and the signed-in user and their own profile ([A3], [U4], [U6], [U8], [U10], [R4], [R5]). */
export function userRoutes(sql: Sql, onRoleChanged?: (userId: string, role: Role) => Promise<void>) {
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
        await onRoleChanged?.(result.user.id, result.user.role);
        return c.json(toApiUser(result.user));
      case 'own':
        throw apiError(403, 'You cannot change your own role.');
      case 'unknown':
        throw apiError(404, 'No such user.');
      case 'not-admin':
        throw apiError(403, 'Forbidden: your role may not do this');
    }
  });

  // [A3] The signed-in user (a 401 without a session, from requireUser: the app's "signed out").
  app.get('/auth/user', (c) => c.json(toApiUser(c.get('user'))));

  // Any signed-in user, Viewer included: only names and e-mail; `role` or anything else in the body is ignored.
  app.put('/auth/user', validate('json', profileInput), async (c) => {
    const user = await updateProfile(sql, c.get('user').id, c.req.valid('json')).catch(emailTaken);
    return c.json(toApiUser(user));
  });

  return app;
}
