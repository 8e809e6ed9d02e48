import type * as Y from 'yjs';
import { chunks, MAX_PARAMETERS } from '../db/chunks.ts';
import type { Sql, Tx } from '../db/client.ts';
import type { Collection, EntityChanges } from '../../../shared/index.ts';
import { selectList, TABLES } from './tables.ts';
import { checkEntity } from './validation.ts';

type Row = Record<string, unknown>;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The last valid state of an entity, as the projection holds it (SPEC §3 field names). */
export async function projectedEntity(sql: Sql | Tx, collection: Collection, id: string): Promise<Row | undefined> {
  if (!UUID.test(id)) return undefined;
  const { table } = TABLES[collection];
  const [row] = await sql<Row[]>`select ${sql.unsafe(selectList(collection))} from ${sql(table)} where id = ${id}`;
  return row;
}

function toRow(collection: Collection, record: Record<string, unknown>): Row {
  return Object.fromEntries(TABLES[collection].columns.map(({ field, column }) => [column, record[field] ?? null]));
}

/**
 * Writes the projection rows of the changed entities inside the caller's transaction, in
 * bulk per table. A valid entity is upserted, a removed one deleted; an invalid one keeps
 * its last valid row (if any) and is listed in entity_problems until it is valid again.
 */
export async function projectChanges(tx: Tx, doc: Y.Doc, changes: EntityChanges): Promise<void> {
  for (const [collection, ids] of changes) {
    const { table, columns } = TABLES[collection];
    const upserts: Row[] = [];
    const removals: string[] = [];
    const problems: { collection: string; entity_id: string; problem: string }[] = [];
    const resolved: string[] = [];
    for (const id of ids) {
      // Keys that are not entity ids are never projected nor recorded (they may hold anything).
      if (!UUID.test(id)) continue;
      const verdict = checkEntity(doc, collection, id);
      if (verdict.state === 'invalid') {
        problems.push({ collection, entity_id: id, problem: verdict.problem });
        continue;
      }
      resolved.push(id);
      if (verdict.state === 'valid') upserts.push(toRow(collection, verdict.record));
      else removals.push(id);
    }
    const names = columns.map((column) => column.column);
    const assignments = names
      .filter((name) => name !== 'id')
      .map((name) => `${name} = excluded.${name}`)
      .join(', ');
    for (const rows of chunks(upserts, Math.floor(MAX_PARAMETERS / names.length))) {
      await tx`insert into ${tx(table)} ${tx(rows, ...names)} on conflict (id) do update set ${tx.unsafe(assignments)}`;
    }
    for (const ids of chunks(removals, MAX_PARAMETERS)) await tx`delete from ${tx(table)} where id in ${tx(ids)}`;
    for (const ids of chunks(resolved, MAX_PARAMETERS - 1)) {
      await tx`delete from entity_problems where collection = ${collection} and entity_id in ${tx(ids)}`;
    }
    for (const rows of chunks(problems, Math.floor(MAX_PARAMETERS / 3))) {
      await tx`insert into entity_problems ${tx(rows, 'collection', 'entity_id', 'problem')}
               on conflict (collection, entity_id) do update set problem = excluded.problem, detected_at = now()`;
    }
  }
}
