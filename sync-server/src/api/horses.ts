import { Hono } from 'hono';
import { z } from 'zod';
import type { Sql } from '../db/client.ts';
import { requireWriter } from '../auth/middleware.ts';
import { apiError } from '../http/errors.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { collectionMap, horseInput, LOOKUP_SINGULAR, newId, writeEntity, type Horse, type HorseFields, type LookupKind } from '../../../shared/index.ts';
import type * as Y from 'yjs';
import { writeThroughDoc } from './doc-writes.ts';

/** List filters of SPEC §7; an empty value means "all". */
const filterId = z.preprocess((value) => (value === '' ? undefined : value), z.uuid('Must be a valid id').optional());
const horseFilters = z.object({
  search: z.string().max(200, 'search must be at most 200 characters').optional(),
  statusId: filterId,
  breedId: filterId,
  colorId: filterId,
  genderId: filterId,
  ownerId: filterId,
});

const HORSE_COLUMNS = (sql: Sql) => sql`
  id, name, breed_id as "breedId", color_id as "colorId", gender_id as "genderId",
  status_id as "statusId", owner_id as "ownerId", birthdate::text as birthdate,
  age_years as "ageYears", price_usd::text as "priceUsd", photo_url as "photoUrl", notes`;

/** A reference must name an entity that exists in the document (owners come with their issue). */
function checkReferences(doc: Y.Doc, horse: HorseFields): void {
  const references: [LookupKind, string | null, string][] = [
    ['breeds', horse.breedId, 'breedId'],
    ['colors', horse.colorId, 'colorId'],
    ['genders', horse.genderId, 'genderId'],
    ['statuses', horse.statusId, 'statusId'],
  ];
  for (const [collection, id, field] of references) {
    if (id !== null && !collectionMap(doc, collection).has(id)) {
      throw apiError(400, `${field}: no such ${LOOKUP_SINGULAR[collection].toLowerCase()}`, [
        { path: field, message: 'Unknown id' },
      ]);
    }
  }
}

export function horseRoutes(sql: Sql, registry: DocumentRegistry) {
  const app = new Hono<AuthedEnv>();

  app.get('/horses', validate('query', horseFilters), async (c) => {
    const f = c.req.valid('query');
    const search = f.search?.trim();
    const rows = await sql<Horse[]>`
      select ${HORSE_COLUMNS(sql)} from horses
      where true
        ${search ? sql`and lower(name) like ${'%' + search.toLowerCase().replace(/[\\%_]/g, (m) => '\\' + m) + '%'}` : sql``}
        ${f.statusId ? sql`and status_id = ${f.statusId}` : sql``}
        ${f.breedId ? sql`and breed_id = ${f.breedId}` : sql``}
        ${f.colorId ? sql`and color_id = ${f.colorId}` : sql``}
        ${f.genderId ? sql`and gender_id = ${f.genderId}` : sql``}
        ${f.ownerId ? sql`and owner_id = ${f.ownerId}` : sql``}
      order by lower(name), id`;
    return c.json(rows);
  });

  app.post('/horses', requireWriter, validate('json', horseInput), async (c) => {
    const input = c.req.valid('json');
    const horse: Horse = { id: newId(), ...input };
    await writeThroughDoc(registry, c.get('user').id, (doc) => {
      checkReferences(doc, input);
      writeEntity(doc, 'horses', horse.id, horse);
    });
    return c.json(horse, 201);
  });

  return app;
}
