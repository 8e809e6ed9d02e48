import type * as Y from 'yjs';
import type { Sql } from '../db/client.ts';
import { apiError } from '../http/errors.ts';
import { TABLES } from '../sync/tables.ts';
import { referrersOf } from '../sync/validation.ts';
import { collectionMap, COLLECTION_NOUN, REFERENCES, type Collection } from '../../../shared/index.ts';


export function nounOf(collection: Collection): string {
  return COLLECTION_NOUN[collection];
}

/** 400 when a reference names nothing; run inside the change, before anything is written. */
export function checkReferences(doc: Y.Doc, collection: Collection, record: Record<string, unknown>): void {
  for (const [field, target] of Object.entries(REFERENCES[collection] ?? {})) {
    const value = record[field];
    if (typeof value === 'string' && !collectionMap(doc, target).has(value)) {
      throw apiError(400, `${field}: no such ${COLLECTION_NOUN[target]}`, [{ path: field, message: 'Unknown id' }]);
    }
  }
}

/** 404 unless the entity exists in the document. */
export function requireEntity(doc: Y.Doc, collection: Collection, id: string): void {
  if (!collectionMap(doc, collection).has(id)) throw apiError(404, `No such ${COLLECTION_NOUN[collection]}`);
}

/** 409 while other records still refer to the entity (a horse's supplier, a sale's horse …). */
export async function refuseIfReferenced(sql: Sql, collection: Collection, id: string): Promise<void> {
  for (const [referrer, field] of referrersOf(collection)) {
    const { table, columns } = TABLES[referrer];
    const column = columns.find((candidate) => candidate.field === field)?.column;
    if (!column) continue;
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(table)} where ${sql(column)} = ${id}`;
    if (row && row.n > 0) {
      const who = row.n === 1 ? `1 ${COLLECTION_NOUN[referrer]} refers` : `${row.n} ${COLLECTION_NOUN[referrer].replace(/s$/, 'se')}s refer`;
      throw apiError(409, `This ${COLLECTION_NOUN[collection]} cannot be deleted: ${who} to it`);
    }
  }
}
