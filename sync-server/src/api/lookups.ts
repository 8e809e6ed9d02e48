import { Hono } from 'hono';
import type { Sql } from '../db/client.ts';
import { requireWriter } from '../auth/middleware.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { LOOKUP_KINDS, lookupInput, newId, writeEntity, type LookupItem } from '../../../shared/index.ts';
import { writeThroughDoc } from './doc-writes.ts';

/** `GET/POST /api/breeds|colors|genders|statuses`. */
export function lookupRoutes(sql: Sql, registry: DocumentRegistry) {
  const app = new Hono<AuthedEnv>();
  for (const kind of LOOKUP_KINDS) {
    app.get(`/${kind}`, async (c) => {
      const rows = await sql<LookupItem[]>`
        select id, name, is_active as "isActive" from ${sql(kind)} order by lower(name), id`;
      return c.json(rows);
    });

    app.post(`/${kind}`, requireWriter, validate('json', lookupInput), async (c) => {
      const input = c.req.valid('json');
      const item: LookupItem = { id: newId(), name: input.name, isActive: input.isActive };
      await writeThroughDoc(registry, c.get('user').id, (doc) => writeEntity(doc, kind, item.id, item));
      return c.json(item, 201);
    });
  }
  return app;
}
