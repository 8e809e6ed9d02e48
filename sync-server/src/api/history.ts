import { Hono } from 'hono';
import { z } from 'zod';
import type { Sql } from '../db/client.ts';
import { apiError } from '../http/errors.ts';
import { userName } from './conflicts.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import { TABLES } from '../sync/tables.ts';
import {
  COLLECTIONS,
  HISTORY_DEFAULT_LIMIT,
  HISTORY_MAX_LIMIT,
  type Collection,
  type HistoryChange,
  type HistoryPage,
} from '../../../shared/index.ts';

const page = z.object({
  limit: z.coerce
    .number('Must be a number')
    .int('Must be a whole number')
    .min(1, 'Must be at least 1')
    .max(HISTORY_MAX_LIMIT, `Must be at most ${HISTORY_MAX_LIMIT}`)
    .default(HISTORY_DEFAULT_LIMIT),
  before: z
    .string()
    .regex(/^[1-9]\d{0,17}$/, 'Must be the id of a change')
    .optional(),
});
const recordParam = z.object({
  collection: z.string(),
  id: z.uuid('Must be a valid id'),
});

type Row = Omit<HistoryChange, 'collection'> & { collection: string };

/**
 * [T2] The change history (docs/architecture.md "History"), newest first: one record's
 * (`/history/{collection}/{id}`), or the whole ranch's latest (`/history/recent`). Every
 * signed-in user reads it, Viewers too. Pages: `limit` rows, then `before` the last id. A
 * sale's history includes its payments'. [T6] A change that met another person's write of the
 * field carries `conflict` (shared/history.ts); a write the merge dropped is listed too.
 */
export function historyRoutes(sql: Sql) {
  const app = new Hono<AuthedEnv>();

  const read = async (where: ReturnType<Sql>, limit: number, before: string | undefined): Promise<HistoryPage> => {
    const rows = await sql<Row[]>`
      select h.id::text as id, h.seq::text as seq, h.step, h.collection, h.entity_id::text as "entityId", h.kind, h.field,
        h.before, h.after, h.user_id::text as "userId",
        ${sql.unsafe(userName('u'))} as "userName",
        to_char(h.server_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "serverTime",
        h.device_time as "deviceTime",
        case when k.id is null then null else jsonb_build_object(
          'id', k.id::text, 'kept', k.mine,
          'otherValue', case when k.mine then k.other else k.kept end,
          'otherUserId', (case when k.mine then k.other_user else k.kept_user end)::text,
          'otherUserName', ${sql.unsafe(userName('ku'))},
          'open', k.closed_seq is null) end as conflict
      from change_history h left join users u on u.id = h.user_id
        left join lateral (select c.*, not h.lost and coalesce(h.after, 'null') = coalesce(c.kept, 'null') as mine
          from conflicts c where c.id = h.conflict_id) k on true
        left join users ku on ku.id = case when k.mine then k.other_user else k.kept_user end
      where ${where} ${before ? sql`and h.id < ${before}` : sql``}
      order by h.id desc limit ${limit + 1}`;
    const changes = rows.slice(0, limit) as HistoryChange[];
    return { changes, nextBefore: rows.length > limit ? (changes.at(-1)?.id ?? null) : null };
  };

  app.get('/history/recent', validate('query', page), async (c) => {
    const { limit, before } = c.req.valid('query');
    return c.json(await read(sql`true`, limit, before));
  });

  app.get('/history/:collection/:id', validate('param', recordParam), validate('query', page), async (c) => {
    const { collection, id } = c.req.valid('param');
    if (!(COLLECTIONS as readonly string[]).includes(collection)) throw apiError(404, `No such collection: ${collection}`);
    const { limit, before } = c.req.valid('query');
    // A sale's history holds its payments' too (they are made and shown with it).
    const payments =
      collection === 'sales'
        ? sql`or (h.collection = 'payments' and h.entity_id in (
            select id from payments where sale_id = ${id}
            union all select entity_id from entity_tombstones where collection = 'payments' and fields ->> 'saleId' = ${id}))
          or (h.collection = 'corrections' and h.entity_id in (select id from corrections where sale_id = ${id}))`
        : sql``;
    const result = await read(sql`((h.collection = ${collection} and h.entity_id = ${id}) ${payments})`, limit, before);
    if (result.changes.length === 0 && !before && !(await known(sql, collection as Collection, id))) {
      throw apiError(404, 'No such record');
    }
    return c.json(result);
  });

  return app;
}

/** Whether the record exists, or existed: its projection row or its tombstone. */
async function known(sql: Sql, collection: Collection, id: string): Promise<boolean> {
  const [row] = await sql`
    select 1 from ${sql(TABLES[collection].table)} where id = ${id}
    union all select 1 from entity_tombstones where collection = ${collection} and entity_id = ${id}
    limit 1`;
  return row !== undefined;
}
