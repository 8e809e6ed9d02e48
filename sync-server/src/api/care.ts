import { Hono } from 'hono';
import { z } from 'zod';
import { requireWriter } from '../auth/middleware.ts';
import type { Sql } from '../db/client.ts';
import { entityIdParam } from '../http/params.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { selectList } from '../sync/tables.ts';
import {
  careDue,
  careEntryEdit,
  careVisitInput,
  deleteEntity,
  getEntity,
  isoDate,
  newId,
  publicName,
  writeEntity,
  type CareEntry,
  type EntityFields,
} from '../../../shared/index.ts';
import { writeThroughDoc } from './doc-writes.ts';
import { checkReferences, requireEntity } from './entity-writes.ts';

const listFilter = z.object({ horseId: z.uuid('horseId: Must be a valid id').optional() });
const dueQuery = z.object({ today: isoDate.optional() });

/**
 * [K1]–[K4] Care entries over REST, at `/api/careEntries` (the collection's name, like every
 * other resource), each write a transaction through the document host like a
 * device's: Viewers read, Staff and Admins write. A visit for several horses (POST) makes an
 * entry per horse, recorded by the signed-in user.
 */
export function careRoutes(sql: Sql, registry: DocumentRegistry) {
  const app = new Hono<AuthedEnv>();
  const columns = () => sql.unsafe(selectList('careEntries'));

  app.get('/careEntries', validate('query', listFilter), async (c) => {
    const { horseId } = c.req.valid('query');
    const rows = await sql<CareEntry[]>`
      select ${columns()} from care_entries
      ${horseId ? sql`where horse_id = ${horseId}` : sql``}
      order by done_on desc, created_at desc, id`;
    return c.json(rows);
  });

  // What is due on `today` (the server's UTC date unless given): the rule the app's bell uses.
  app.get('/careEntries/due', validate('query', dueQuery), async (c) => {
    const today = c.req.valid('query').today ?? new Date().toISOString().slice(0, 10);
    const rows = await sql<CareEntry[]>`select ${columns()} from care_entries`;
    return c.json(careDue(rows, today).map(({ key: _key, type: _type, ...due }) => due));
  });

  app.post('/careEntries', requireWriter, validate('json', careVisitInput), async (c) => {
    const { horseIds, ...details } = c.req.valid('json');
    const user = c.get('user');
    const createdAt = new Date().toISOString();
    const recordedByName = publicName(user);
    const entries = horseIds.map((horseId) => ({ id: newId(), horseId, ...details, recordedBy: user.id, recordedByName, createdAt }));
    await writeThroughDoc(registry, user.id, (doc) => {
      for (const entry of entries) checkReferences(doc, 'careEntries', entry);
      for (const { id, ...fields } of entries) writeEntity(doc, 'careEntries', id, fields);
    });
    return c.json(entries, 201);
  });

  app.put('/careEntries/:id', requireWriter, validate('param', entityIdParam), validate('json', careEntryEdit), async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json') as EntityFields;
    let saved: EntityFields = {};
    await writeThroughDoc(registry, c.get('user').id, (doc) => {
      requireEntity(doc, 'careEntries', id);
      checkReferences(doc, 'careEntries', input);
      writeEntity(doc, 'careEntries', id, input);
      saved = getEntity(doc, 'careEntries', id) ?? {};
    });
    return c.json(saved);
  });

  app.delete('/careEntries/:id', requireWriter, validate('param', entityIdParam), async (c) => {
    const { id } = c.req.valid('param');
    await writeThroughDoc(registry, c.get('user').id, (doc) => {
      requireEntity(doc, 'careEntries', id);
      deleteEntity(doc, 'careEntries', id);
    });
    return c.body(null, 204);
  });

  return app;
}
