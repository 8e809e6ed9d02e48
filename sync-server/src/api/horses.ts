import { Hono } from 'hono';
import { z } from 'zod';
import type { Sql } from '../db/client.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { selectList } from '../sync/tables.ts';
import { horseInput, type Horse } from '../../../shared/index.ts';
import { entityWriteRoutes } from './entity-routes.ts';
import type { ReadCache } from './read-cache.ts';

/** List filters of [X1], [H2]; an empty value means "all". */
const filterId = z.preprocess((value) => (value === '' ? undefined : value), z.uuid('Must be a valid id').optional());
const horseFilters = z.object({
  search: z.string().max(200, 'search must be at most 200 characters').optional(),
  statusId: filterId,
  breedId: filterId,
  colorId: filterId,
  genderId: filterId,
  ownerId: filterId,
});

/** `search` matches anywhere in the name, case-insensitively, with LIKE's wildcards escaped. */
function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
}

export function horseRoutes(sql: Sql, registry: DocumentRegistry, cache: ReadCache) {
  const app = new Hono<AuthedEnv>();

  app.get('/horses', validate('query', horseFilters), async (c) => {
    const f = c.req.valid('query');
    const search = f.search?.trim();
    const key = `horses?${JSON.stringify([search ?? '', f.statusId, f.breedId, f.colorId, f.genderId, f.ownerId])}`;
    return cache.respond(
      c,
      key,
      () => sql<Horse[]>`
      select ${sql.unsafe(selectList('horses'))} from horses
      where true
        ${search ? sql`and lower(name) like ${likePattern(search)}` : sql``}
        ${f.statusId ? sql`and status_id = ${f.statusId}` : sql``}
        ${f.breedId ? sql`and breed_id = ${f.breedId}` : sql``}
        ${f.colorId ? sql`and color_id = ${f.colorId}` : sql``}
        ${f.genderId ? sql`and gender_id = ${f.genderId}` : sql``}
        ${f.ownerId ? sql`and owner_id = ${f.ownerId}` : sql``}
      order by lower(name), id`,
    );
  });

  app.route('/', entityWriteRoutes(registry, { collection: 'horses', schema: horseInput, update: true, remove: true }));
  return app;
}
