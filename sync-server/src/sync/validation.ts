import type * as Y from 'yjs';
import { collectionMap, entityShape, parseFields, REFERENCES, type Collection, type EntityFields } from '../../../shared/index.ts';

export type Verdict =
  | { state: 'absent' }
  | { state: 'valid'; record: Record<string, unknown> }
  /**
   * `fields`: the fields the first failing check blames (shape first, then the schema, then
   * references). One fault can hide another — a reference is checked only once the schema
   * passes, the down payment ≤ price rule only once both amounts are valid — so a caller
   * that repairs these fields must check again (see planCompensations).
   */
  | { state: 'invalid'; problem: string; fields: string[] };

/** Whether an entity exists: the document's answer, or one with planned changes laid over it. */
export type Exists = (collection: Collection, id: string) => boolean;

/**
 * Checks one value under a collection key: its shape (entity-shape.ts), its shared record
 * schema and its references (docs/sync-rules.md).
 */
export function checkEntity(doc: Y.Doc, collection: Collection, id: string): Verdict {
  const map = collectionMap(doc, collection);
  if (!map.has(id)) return { state: 'absent' };
  const shape = entityShape(collection, id, map.get(id));
  if (shape.kind === 'bad-key') return { state: 'invalid', problem: 'key: not an entity id', fields: [] };
  if (shape.kind === 'not-a-map') return { state: 'invalid', problem: 'value: not a map of fields', fields: [] };
  if (shape.strays.length > 0) {
    return {
      state: 'invalid',
      problem: shape.strays.map((field) => `${field}: not a field of this record`).join('; '),
      fields: shape.strays,
    };
  }
  return checkFields(collection, id, shape.fields, (target, targetId) => collectionMap(doc, target).has(targetId));
}

/** Checks an entity's scalar fields (as the document would hold them) against its schema and references. */
export function checkFields(collection: Collection, id: string, fields: EntityFields, exists: Exists): Verdict {
  const parsed = parseFields(collection, id, fields);
  if (!parsed.valid) return { state: 'invalid', problem: parsed.problem, fields: parsed.fields };
  const record = parsed.record;
  const dangling = Object.entries(REFERENCES[collection] ?? {}).filter(([field, target]) => {
    const value = record[field];
    return typeof value === 'string' && !exists(target, value);
  });
  if (dangling.length > 0) {
    return {
      state: 'invalid',
      problem: dangling.map(([field, target]) => `${field}: no such entity in ${target}`).join('; '),
      fields: dangling.map(([field]) => field),
    };
  }
  return { state: 'valid', record };
}
