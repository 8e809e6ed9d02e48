import type * as Y from 'yjs';
import type { Sql, Tx } from '../db/client.ts';
import { isEntityId, type Collection, type EntityChanges } from '../../../shared/index.ts';
import { selectList, TABLES } from './tables.ts';
import { checkEntity } from './validation.ts';

type Row = Record<string, unknown>;

/**
 * The last valid states of entities ([Y3] field names, `id` included): the projection row,
 * else the tombstone the projection left when it removed the row. One statement.
 */
export async function lastValidStates(sql: Sql | Tx, collection: Collection, ids: string[]): Promise<Map<string, Row>> {
  const wanted = ids.filter(isEntityId);
  if (wanted.length === 0) return new Map();
  const { table } = TABLES[collection];
  const rows = await sql<{ id: string; fields: Row }[]>`
    select p.id::text as id, to_jsonb(p) as fields
    from (select ${sql.unsafe(selectList(collection))} from ${sql(table)} where id = any(${wanted}::uuid[])) p
    union all
    select t.entity_id::text, t.fields from entity_tombstones t
    where t.collection = ${collection} and t.entity_id = any(${wanted}::uuid[])
      and not exists (select 1 from ${sql(table)} where id = t.entity_id)`;
  return new Map(rows.map((row) => [row.id, row.fields]));
}

function toRow(collection: Collection, record: Record<string, unknown>): Row {
  return Object.fromEntries(TABLES[collection].columns.map(({ field, column }) => [column, record[field] ?? null]));
}

/**
 * The projection writes for the changed entities, as parts of the caller's `with` statement
 * (each reads the `claimed` row, so none runs unless the commit claimed its log position).
 * A valid entity is upserted, a removed one deleted; an invalid one keeps its last valid row
 * (if any) and is listed in entity_problems until it is valid again. Rows travel as one
 * JSON parameter per table, so a statement's size does not grow with the rows. Rows are
 * reached by key (`= any(array(…))`, not a join the planner could answer by scanning the
 * table), so a commit's work follows its change, not the table's size.
 */
export function projectionStatements(doc: Y.Doc, changes: EntityChanges, parameter: (value: unknown) => string): string[] {
  const parts: string[] = [];
  for (const [collection, ids] of changes) {
    const { table, columns } = TABLES[collection];
    const upserts: Row[] = [];
    const removals: string[] = [];
    const problems: { entity_id: string; problem: string }[] = [];
    const resolved: string[] = [];
    for (const id of ids) {
      // Keys that are not entity ids are never projected nor recorded (they may hold anything).
      if (!isEntityId(id)) continue;
      const verdict = checkEntity(doc, collection, id);
      if (verdict.state === 'invalid') {
        problems.push({ entity_id: id, problem: verdict.problem });
        continue;
      }
      resolved.push(id);
      if (verdict.state === 'valid') upserts.push(toRow(collection, verdict.record));
      else removals.push(id);
    }
    const json = (value: unknown) => `${parameter(value)}::jsonb`;
    const names = columns.map((column) => column.column).join(', ');
    const assignments = columns
      .filter(({ column }) => column !== 'id')
      .map(({ column }) => `${column} = excluded.${column}`)
      .join(', ');
    const label = `'${collection}'`;
    if (upserts.length > 0) {
      parts.push(`upsert_${table} as (insert into ${table} (${names})
        select ${names} from claimed, jsonb_populate_recordset(null::${table}, ${json(upserts)})
        on conflict (id) do update set ${assignments})`);
    }
    if (removals.length > 0) {
      parts.push(`remove_${table} as (delete from ${table}
        where id = any(array(select value::uuid from claimed, jsonb_array_elements_text(${json(removals)}))) returning *)`);
      parts.push(`tomb_${table} as (insert into entity_tombstones (collection, entity_id, fields)
        select ${label}, removed.id, to_jsonb(kept) from remove_${table} removed, lateral (select ${selectList(collection, 'removed')}) kept
        on conflict (collection, entity_id) do update set fields = excluded.fields, deleted_at = now())`);
    }
    if (resolved.length > 0) {
      parts.push(`resolve_${table} as (delete from entity_problems where collection = ${label}
        and entity_id = any(array(select value from claimed, jsonb_array_elements_text(${json(resolved)}))))`);
    }
    if (problems.length > 0) {
      parts.push(`problems_${table} as (insert into entity_problems (collection, entity_id, problem)
        select ${label}, found.entity_id, found.problem
        from claimed, jsonb_to_recordset(${json(problems)}) as found (entity_id text, problem text)
        on conflict (collection, entity_id) do update set problem = excluded.problem, detected_at = now())`);
    }
  }
  return parts;
}
