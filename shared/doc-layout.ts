import * as Y from 'yjs';
import { COLLECTIONS, type Collection, type EntityFields, type JsonValue } from './collections.ts';

/**
 * The Yjs document layout, a public contract ([Y1]–[Y5] in docs/product.md):
 * one document `ranch` whose top-level Y.Maps are keyed by entity id, each value a
 * Y.Map of the entity's field names with JSON values ([Y3], [Y4]). The collections and
 * their names are in collections.ts, which has no Yjs (the page's entry needs only them).
 */
export {
  COLLECTION_NOUN,
  COLLECTIONS,
  type Collection,
  DOC_COLLECTIONS,
  type DocCollection,
  DOC_LAYOUT_VERSION,
  DOC_NAME,
  type EntityFields,
  type JsonValue,
  LOOKUP_KINDS,
  type LookupKind,
  MOVED_TO_LEDGER,
} from './collections.ts';

export function collectionMap(doc: Y.Doc, collection: Collection): Y.Map<Y.Map<JsonValue>> {
  return doc.getMap(collection);
}

/** A plain snapshot of one entity, `id` included. */
export function readEntity(entity: Y.Map<JsonValue>): EntityFields {
  return entity.toJSON() as EntityFields;
}

export function getEntity(doc: Y.Doc, collection: Collection, id: string): EntityFields | undefined {
  const entity = collectionMap(doc, collection).get(id);
  return entity instanceof Y.Map ? readEntity(entity) : undefined;
}

/**
 * Creates the entity or updates it field by field. Only fields whose value differs are
 * written, so two devices editing different fields of one horse both keep their change.
 * Must run inside the caller's `doc.transact`.
 */
export function writeEntity(doc: Y.Doc, collection: Collection, id: string, fields: EntityFields): void {
  const map = collectionMap(doc, collection);
  let entity = map.get(id);
  if (!(entity instanceof Y.Map)) {
    entity = new Y.Map<JsonValue>();
    map.set(id, entity);
  }
  if (entity.get('id') !== id) entity.set('id', id);
  for (const [field, value] of Object.entries(fields)) {
    if (field === 'id') continue;
    if (entity.get(field) !== value) entity.set(field, value);
  }
}

export function deleteEntity(doc: Y.Doc, collection: Collection, id: string): boolean {
  const map = collectionMap(doc, collection);
  if (!map.has(id)) return false;
  map.delete(id);
  return true;
}

export type EntityChanges = Map<Collection, Set<string>>;

/**
 * Reports once per transaction which entity ids changed (created, edited or deleted) in
 * any collection. The server projection and the Dexie projection both build on it.
 * Returns the function that stops observing.
 */
export function observeEntities(doc: Y.Doc, onChange: (changes: EntityChanges, transaction: Y.Transaction) => void): () => void {
  const pending = new WeakMap<Y.Transaction, EntityChanges>();
  const stops = COLLECTIONS.map((collection) => {
    const map = collectionMap(doc, collection);
    const handler = (events: Y.YEvent<Y.AbstractType<unknown>>[], transaction: Y.Transaction) => {
      let changes = pending.get(transaction);
      if (!changes) pending.set(transaction, (changes = new Map()));
      let ids = changes.get(collection);
      if (!ids) changes.set(collection, (ids = new Set()));
      for (const event of events) {
        if (event.target === map) {
          for (const key of (event as Y.YMapEvent<unknown>).keysChanged) ids.add(key);
        } else if (typeof event.path[0] === 'string') {
          ids.add(event.path[0]);
        }
      }
    };
    map.observeDeep(handler);
    return () => map.unobserveDeep(handler);
  });
  // Deep observers run before 'afterTransaction', so the set is complete here.
  const flush = (transaction: Y.Transaction) => {
    const changes = pending.get(transaction);
    if (changes) {
      pending.delete(transaction);
      onChange(changes, transaction);
    }
  };
  doc.on('afterTransaction', flush);
  return () => {
    stops.forEach((stop) => stop());
    doc.off('afterTransaction', flush);
  };
}
