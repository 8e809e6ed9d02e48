import type { Handler } from 'hono';
import type { Sql } from '../db/client.ts';
import type { AppEnv } from './types.ts';

export const HEALTH_PATH = '/api/health';

/**
 * [X7] Whether this server can answer: 200 `{"status":"ok"}` when its database answers a
 * trivial query, else 503. Public and cheap (no session, no document), for a container's
 * health check or a load balancer; it tells nothing about the ranch.
 */
export function healthHandler(sql: Sql): Handler<AppEnv> {
  return async (c) => {
    c.header('cache-control', 'no-store');
    try {
      await sql`select 1`;
      return c.json({ status: 'ok' });
    } catch {
      return c.json({ status: 'unavailable', message: 'The database does not answer' }, 503);
    }
  };
}
