import type * as Y from 'yjs';
import type { Sql } from '../db/client.ts';
import { writeEntity, type Collection, type EntityChanges, type EntityFields } from '../../../shared/index.ts';
import { projectedEntity, UUID } from './projection.ts';
import { TABLES } from './tables.ts';
import { checkEntity, referrersOf } from './validation.ts';

/** A write that undoes an invalid change: the entity's fields as they last were valid. */
export type Compensation = { collection: Collection; id: string; fields: EntityFields };

/**
 * Decides how the server answers changes that would leave the ranch invalid:
 * - an entity that was valid before and now has bad fields gets those fields written back
 *   to their last valid values (so every replica converges on the valid state);
 * - an entity that others still refer to and was deleted is restored whole;
 * - an entity that was never valid stays as it is and is only marked (entity_problems).
 */
/** Last valid fields of entities, by `collection/id`, not yet in the projection. */
export type LastValid = Map<string, Record<string, unknown>>;

/** Records the entities of `changes` that are valid now, as the newest valid state. */
export function rememberValid(doc: Y.Doc, changes: EntityChanges, into: LastValid): void {
  for (const [collection, ids] of changes) {
    for (const id of ids) {
      const verdict = checkEntity(doc, collection, id);
      if (verdict.state === 'valid') into.set(`${collection}/${id}`, verdict.record);
      else if (verdict.state === 'absent') into.delete(`${collection}/${id}`);
    }
  }
}

export async function planCompensations(
  sql: Sql,
  doc: Y.Doc,
  changes: EntityChanges,
  lastValid: LastValid = new Map(),
): Promise<Compensation[]> {
  const plans: Compensation[] = [];
  for (const [collection, ids] of changes) {
    for (const id of ids) {
      const verdict = checkEntity(doc, collection, id);
      if (verdict.state === 'valid') continue;
      if (verdict.state === 'invalid') {
        const last = lastValid.get(`${collection}/${id}`) ?? (await projectedEntity(sql, collection, id));
        if (!last) continue;
        const fields = Object.fromEntries(verdict.fields.filter((field) => field in last).map((field) => [field, last[field]]));
        if (Object.keys(fields).length > 0) plans.push({ collection, id, fields: fields as EntityFields });
        continue;
      }
      if (await isReferenced(sql, collection, id)) {
        const last = lastValid.get(`${collection}/${id}`) ?? (await projectedEntity(sql, collection, id));
        if (last) plans.push({ collection, id, fields: last as EntityFields });
      }
    }
  }
  return plans;
}

async function isReferenced(sql: Sql, collection: Collection, id: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  for (const [referrer, field] of referrersOf(collection)) {
    const { table, columns } = TABLES[referrer];
    const column = columns.find((candidate) => candidate.field === field)?.column;
    if (!column) continue;
    const [row] = await sql`select 1 from ${sql(table)} where ${sql(column)} = ${id} limit 1`;
    if (row) return true;
  }
  return false;
}

export function applyCompensations(doc: Y.Doc, plans: Compensation[]): void {
  for (const plan of plans) writeEntity(doc, plan.collection, plan.id, plan.fields);
}
