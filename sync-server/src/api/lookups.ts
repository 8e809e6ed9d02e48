import { Hono } from 'hono';
import type { Sql } from '../db/client.ts';
import type { AuthedEnv } from '../http/types.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { selectList } from '../sync/tables.ts';
import { LOOKUP_KINDS, lookupInput, type LookupItem } from '../../../shared/index.ts';
import { entityWriteRoutes } from './entity-routes.ts';

/**
 * `GET/POST /api/breeds|colors|genders|statuses`, plus PUT (rename, deactivate) and DELETE
 * (refused with 409 while a horse uses the item) beyond the seed.
 */
export function lookupRoutes(sql: Sql, registry: DocumentRegistry) {
  const app = new Hono<AuthedEnv>();
  for (const kind of LOOKUP_KINDS) {
    app.get(`/${kind}`, async (c) => {
      const rows = await sql<LookupItem[]>`
        select ${sql.unsafe(selectList(kind))} from ${sql(kind)} order by lower(name), id`;
      return c.json(rows);
    });
    app.route('/', entityWriteRoutes(registry, { collection: kind, schema: lookupInput, update: true, remove: true }));
  }
  return app;
}
