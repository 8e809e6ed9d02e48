import type * as Y from 'yjs';
import { collectionMap, getEntity, RECORD_SCHEMAS, REFERENCES, type Collection, type EntityFields } from '../../../shared/index.ts';

export type Verdict =
  | { state: 'absent' }
  | { state: 'valid'; record: Record<string, unknown> }
  /**
   * `fields`: the fields the first failing check blames (schema first, then references).
   * One fault can hide another — a reference is checked only once the schema passes, the
   * down payment ≤ price rule only once both amounts are valid — so a caller that repairs
   * these fields must check again (see planCompensations).
   */
  | { state: 'invalid'; problem: string; fields: string[] };

/** Whether an entity exists: the document's answer, or one with planned changes laid over it. */
export type Exists = (collection: Collection, id: string) => boolean;

/**
 * Checks one entity of the document against its shared record schema and its references
 * (DESIGN.md: synced data is validated on the server before it is projected).
 */
export function checkEntity(doc: Y.Doc, collection: Collection, id: string): Verdict {
  const fields = getEntity(doc, collection, id);
  if (!fields) return { state: 'absent' };
  return checkFields(collection, id, fields, (target, targetId) => collectionMap(doc, target).has(targetId));
}

/** Checks an entity's fields (as the document would hold them) against its schema and references. */
export function checkFields(collection: Collection, id: string, fields: EntityFields, exists: Exists): Verdict {
  const parsed = RECORD_SCHEMAS[collection].safeParse(fields);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    return {
      state: 'invalid',
      problem: issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      fields: [...new Set(issues.map((issue) => String(issue.path[0] ?? '')).filter(Boolean))],
    };
  }
  const record = parsed.data as Record<string, unknown>;
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
  return { state: 'valid', record: { ...record, id } };
}

/** Collections and fields that refer to `collection`: who would dangle if one of its entities went. */
export function referrersOf(collection: Collection): [Collection, string][] {
  return Object.entries(REFERENCES).flatMap(([referrer, fields]) =>
    Object.entries(fields ?? {})
      .filter(([, target]) => target === collection)
      .map(([field]) => [referrer as Collection, field] as [Collection, string]),
  );
}
