import * as Y from 'yjs';
import { collectionMap, COLLECTION_NOUN, type Collection } from './doc-layout.ts';
import { isEntityId } from './ids.ts';
import { DELETED_WITH, REFERENCES } from './reference-fields.ts';

export { DELETED_WITH, REFERENCES } from './reference-fields.ts';

/** The keys of the entities of `referrer` whose `field` names `id`. */
function namingKeys(doc: Y.Doc, referrer: Collection, field: string, id: string): string[] {
  const keys: string[] = [];
  for (const [key, entity] of collectionMap(doc, referrer)) {
    if (isEntityId(key) && entity instanceof Y.Map && entity.get(field) === id) keys.push(key);
  }
  return keys;
}

/**
 * Deletes `collection/id` and the entities DELETED_WITH it that name it; run inside the
 * caller's transaction, after refusing while anything else refers to it. Returns whether
 * the entity was there.
 */
export function deleteWithDependents(doc: Y.Doc, collection: Collection, id: string): boolean {
  const map = collectionMap(doc, collection);
  if (!map.has(id)) return false;
  for (const [referrer, field] of referrersOf(collection)) {
    if (!DELETED_WITH[collection]?.includes(referrer)) continue;
    const referrers = collectionMap(doc, referrer);
    for (const key of namingKeys(doc, referrer, field, id)) referrers.delete(key);
  }
  map.delete(id);
  return true;
}

/** The collections and fields that name an entity of `collection`: who would dangle if one went. */
export function referrersOf(collection: Collection): [Collection, string][] {
  return Object.entries(REFERENCES).flatMap(([referrer, fields]) =>
    Object.entries(fields ?? {})
      .filter(([, target]) => target === collection)
      .map(([field]) => [referrer as Collection, field] as [Collection, string]),
  );
}

/** Entities of one collection that still name an entity (see `referencesTo`). */
export type Referrers = { collection: Collection; count: number };

/**
 * The entities of the document that name `collection/id` in a reference field and would keep
 * it from being deleted (those DELETED_WITH it do not), counted per
 * referring collection (only collections with at least one). Reads the document itself,
 * the merged truth, so a device and a REST delete answer "is it referred to?" the same way;
 * like the server's reference index, only entities under entity-id keys count.
 */
export function referencesTo(doc: Y.Doc, collection: Collection, id: string): Referrers[] {
  const found: Referrers[] = [];
  for (const [referrer, field] of referrersOf(collection)) {
    if (DELETED_WITH[collection]?.includes(referrer)) continue;
    const count = namingKeys(doc, referrer, field, id).length;
    if (count > 0) found.push({ collection: referrer, count });
  }
  return found;
}

/** "This supplier cannot be deleted: 2 horses refer to it" — why a delete is refused. */
export function inUseMessage(collection: Collection, { collection: referrer, count }: Referrers): string {
  const noun = COLLECTION_NOUN[referrer];
  const who = count === 1 ? `1 ${noun} refers` : `${count} ${noun.replace(/s$/, 'se')}s refer`;
  return `This ${COLLECTION_NOUN[collection]} cannot be deleted: ${who} to it`;
}
