import * as Y from 'yjs';
import { collectionMap, COLLECTIONS, isEntityId, REFERENCES, type Collection, type EntityChanges } from '../../../shared/index.ts';

/** `collection/id`: how an entity is named in the reference index and in compensation plans. */
export const entityKey = (collection: Collection, id: string) => `${collection}/${id}`;
function parseKey(key: string): [Collection, string] {
  const slash = key.indexOf('/');
  return [key.slice(0, slash) as Collection, key.slice(slash + 1)];
}

/**
 * Who refers to whom in the document, kept current transaction by transaction (fed the
 * changes `observeEntities` reports). It answers from the document itself — the merged
 * truth at that moment — and not from the projection, which lags the changes of a batch:
 * - `isReferenced`: does any entity of the document still refer to this one;
 * - `update` returns the entities that referred to something missing which has now
 *   appeared: they may have become valid without changing themselves, so they must be
 *   checked (and projected) again.
 * Only entities under UUID keys count (other keys are never projected). Memory: one entry
 * per reference in the document.
 */
export class ReferenceIndex {
  /** referrer key → the keys it refers to. */
  private readonly targets = new Map<string, string[]>();
  /** target key → the keys of the entities referring to it. */
  private readonly referrers = new Map<string, Set<string>>();
  /** Targets that were absent while referred to, as last seen. */
  private readonly missing = new Set<string>();

  /**
   * How many records outside the document (ledger sales, ledger/sale-index.ts) name an
   * entity: they keep it from being deleted as the document's referrers do.
   */
  namedOutside: (collection: Collection, id: string) => number = () => 0;

  constructor(private readonly doc: Y.Doc) {
    const all: EntityChanges = new Map();
    for (const collection of COLLECTIONS) {
      if (REFERENCES[collection]) all.set(collection, new Set(collectionMap(doc, collection).keys()));
    }
    this.update(all);
  }

  isReferenced(collection: Collection, id: string): boolean {
    return (this.referrers.get(entityKey(collection, id))?.size ?? 0) > 0 || this.namedOutside(collection, id) > 0;
  }

  /** The entities of the document that refer to this one (as the document holds them now). */
  referrersOf(collection: Collection, id: string): [Collection, string][] {
    return [...(this.referrers.get(entityKey(collection, id)) ?? [])].map(parseKey);
  }

  /**
   * Brings the index up to date with `changes` (the document already holds them) and
   * returns the entities that referred to one of them while it was missing, now that it
   * is there again.
   */
  update(changes: EntityChanges): EntityChanges {
    const revived: EntityChanges = new Map();
    for (const [collection, ids] of changes) {
      const fields = REFERENCES[collection];
      if (!fields) continue;
      for (const id of ids) this.index(collection, id, fields);
    }
    for (const [collection, ids] of changes) {
      for (const id of ids) {
        const key = entityKey(collection, id);
        const referrers = this.referrers.get(key);
        if (!referrers) continue;
        if (!this.exists(key)) this.missing.add(key);
        else if (this.missing.delete(key)) {
          for (const referrer of referrers) {
            const [referrerCollection, referrerId] = parseKey(referrer);
            let found = revived.get(referrerCollection);
            if (!found) revived.set(referrerCollection, (found = new Set()));
            found.add(referrerId);
          }
        }
      }
    }
    return revived;
  }

  private index(collection: Collection, id: string, fields: Record<string, Collection>): void {
    const key = entityKey(collection, id);
    for (const target of this.targets.get(key) ?? []) {
      const referrers = this.referrers.get(target);
      referrers?.delete(key);
      if (referrers?.size === 0) {
        this.referrers.delete(target);
        this.missing.delete(target);
      }
    }
    this.targets.delete(key);
    const entity = collectionMap(this.doc, collection).get(id);
    if (!isEntityId(id) || !(entity instanceof Y.Map)) return;
    const targets: string[] = [];
    for (const [field, targetCollection] of Object.entries(fields)) {
      const value = entity.get(field);
      if (typeof value !== 'string' || value === '') continue;
      const target = entityKey(targetCollection, value);
      targets.push(target);
      let referrers = this.referrers.get(target);
      if (!referrers) this.referrers.set(target, (referrers = new Set()));
      referrers.add(key);
      if (!this.exists(target)) this.missing.add(target);
    }
    if (targets.length > 0) this.targets.set(key, targets);
  }

  private exists(key: string): boolean {
    const [collection, id] = parseKey(key);
    return collectionMap(this.doc, collection).has(id);
  }
}
