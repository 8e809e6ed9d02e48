import { Hono } from 'hono';
import { z } from 'zod';
import type { Sql } from '../db/client.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import { COLLECTIONS, type Collection, type Conflict, type ConflictList } from '../../../shared/index.ts';

const filter = z
  .object({
    collection: z.enum(COLLECTIONS, `Must be one of: ${COLLECTIONS.join(', ')}`).optional(),
    id: z.uuid('Must be a valid id').optional(),
  })
  .refine((query) => query.id === undefined || query.collection !== undefined, {
    message: 'Give the collection with the id',
    path: ['collection'],
  });

/**
 * A person's name as the history gives it (shared publicName): first and last name, else their
 * role — never the e-mail, which only Admins see.
 */
export const userName = (alias: string) =>
  `coalesce(nullif(trim(concat_ws(' ', ${alias}.first_name, ${alias}.last_name)), ''), ${alias}.role)`;

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

type Row = {
  id: string;
  collection: Collection;
  entityId: string;
  field: string;
  kept: unknown;
  other: unknown;
  keptUserId: string | null;
  keptUserName: string | null;
  keptTime: string;
  otherUserId: string | null;
  otherUserName: string | null;
  otherTime: string;
  money: boolean;
  detectedAt: string;
};

/**
 * [T6] The open conflicts (docs/api.md), oldest first: every record's, one collection's, or
 * one record's (`collection` and `id`). Every signed-in user reads them, Viewers too. A side
 * whose time is unknown (written before the history began) gives the time it was found.
 */
export function conflictRoutes(sql: Sql) {
  const app = new Hono<AuthedEnv>();

  app.get('/conflicts', validate('query', filter), async (c) => {
    const { collection, id } = c.req.valid('query');
    const rows = await sql<Row[]>`
      select c.id::text as id, c.collection, c.entity_id::text as "entityId", c.field, c.kept, c.other,
        c.kept_user::text as "keptUserId", ${sql.unsafe(userName('ku'))} as "keptUserName",
        ${sql.unsafe(iso('coalesce(c.kept_time, c.detected_at)'))} as "keptTime",
        c.other_user::text as "otherUserId", ${sql.unsafe(userName('ou'))} as "otherUserName",
        ${sql.unsafe(iso('coalesce(c.other_time, c.detected_at)'))} as "otherTime",
        c.money, ${sql.unsafe(iso('c.detected_at'))} as "detectedAt"
      from conflicts c
      left join users ku on ku.id = c.kept_user
      left join users ou on ou.id = c.other_user
      where c.closed_seq is null
        ${collection ? sql`and c.collection = ${collection}` : sql``}
        ${id ? sql`and c.entity_id = ${id}` : sql``}
      order by c.id`;
    const conflicts = rows.map(
      (row): Conflict => ({
        id: row.id,
        collection: row.collection,
        entityId: row.entityId,
        field: row.field,
        kept: { value: row.kept, userId: row.keptUserId, userName: row.keptUserName, serverTime: row.keptTime },
        other: { value: row.other, userId: row.otherUserId, userName: row.otherUserName, serverTime: row.otherTime },
        money: row.money,
        detectedAt: row.detectedAt,
      }),
    );
    return c.json({ conflicts } satisfies ConflictList);
  });

  return app;
}
