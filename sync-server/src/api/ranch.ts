import { Hono } from 'hono';
import { ranchName } from '../auth/setup.ts';
import type { Sql } from '../db/client.ts';
import type { AuthedEnv } from '../http/types.ts';

/** [A14] `GET /api/ranch`: the ranch's settings, today its name (null until the first-run page gives one). */
export function ranchRoutes(sql: Sql) {
  const app = new Hono<AuthedEnv>();
  app.get('/ranch', async (c) => c.json({ name: await ranchName(sql) }));
  return app;
}
