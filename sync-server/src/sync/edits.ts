import type * as Y from 'yjs';
import { collectionMap, COLLECTIONS } from '../../../shared/index.ts';
import { entityKey } from './references.ts';

/** `collection/id` → the fields a transaction changed in an entity that existed before it ('*': the whole value was replaced). */
export type Edits = Map<string, Set<string>>;

export const WHOLE = '*';

export function mergeEdits(into: Edits, from: Edits): void {
  for (const [key, fields] of from) {
    const known = into.get(key);
    if (known) fields.forEach((field) => known.add(field));
    else into.set(key, new Set(fields));
  }
}

/**
 * Reports which fields of existing entities each transaction changed. A new entity is not an
 * edit (Yjs raises no event for a type made in the same transaction), so sales and payments
 * can be created but their edits told apart (compensation.ts, create-only records).
 * Returns the function that stops observing.
 */
export function observeEdits(doc: Y.Doc, onEdit: (key: string, fields: Iterable<string>) => void): () => void {
  const stops = COLLECTIONS.map((collection) => {
    const map = collectionMap(doc, collection);
    const handler = (events: Y.YEvent<Y.AbstractType<unknown>>[]) => {
      for (const event of events) {
        if (event.target === map) {
          for (const [key, change] of (event as Y.YMapEvent<unknown>).changes.keys) {
            if (change.action === 'update') onEdit(entityKey(collection, key), [WHOLE]);
          }
          continue;
        }
        const [id, field] = event.path;
        if (typeof id !== 'string') continue;
        onEdit(entityKey(collection, id), typeof field === 'string' ? [field] : event.changes.keys.keys());
      }
    };
    map.observeDeep(handler);
    return () => map.unobserveDeep(handler);
  });
  return () => stops.forEach((stop) => stop());
}
