import { Hono } from 'hono';
import type { Sql } from '../db/client.ts';
import { requireRole } from '../auth/middleware.ts';
import { createUser, EmailTakenError, toApiUser } from '../auth/users.ts';
import { apiError } from '../http/errors.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import { createUserInput } from '../../../shared/index.ts';

/** Account administration (Admin only). */
export function userRoutes(sql: Sql) {
  const app = new Hono<AuthedEnv>();

  app.post('/users', requireRole('Admin'), validate('json', createUserInput), async (c) => {
    try {
      const user = await createUser(sql, c.req.valid('json'));
      return c.json(toApiUser(user), 201);
    } catch (error) {
      if (error instanceof EmailTakenError) throw apiError(409, error.message);
      throw error;
    }
  });

  return app;
}
