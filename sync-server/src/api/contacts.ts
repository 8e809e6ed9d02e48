import { Hono } from 'hono';
import type { Sql } from '../db/client.ts';
import type { AuthedEnv } from '../http/types.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { selectList } from '../sync/tables.ts';
import { contactInput } from '../../../shared/index.ts';
import { entityWriteRoutes } from './entity-routes.ts';

/**
 * Suppliers (`/api/owners`, the old name kept, [G2]) and buyers: list, create, edit, delete.
 * A supplier or buyer that horses or sales still refer to cannot be deleted (409).
 */
export function contactRoutes(sql: Sql, registry: DocumentRegistry) {
  const app = new Hono<AuthedEnv>();
  for (const collection of ['owners', 'buyers'] as const) {
    app.get(`/${collection}`, async (c) => {
      const rows = await sql`
        select ${sql.unsafe(selectList(collection))} from ${sql(collection)}
        order by lower(last_name), lower(first_name), id`;
      return c.json(rows);
    });
    app.route(
      '/',
      entityWriteRoutes(registry, { collection, schema: contactInput, stamped: collection === 'owners', update: true, remove: true }),
    );
  }
  return app;
}
