import type * as Y from 'yjs';
import { collectionMap, type Collection } from '../../../../shared/index.ts';

/** Raised when a record is still referenced (a supplier with horses, a buyer with sales). */
export class InUseError extends Error {
  readonly count: number;

  constructor(message: string, count: number) {
    super(message);
    this.name = 'InUseError';
    this.count = count;
  }
}

/** Raised when a write names a record that is not in the document (deleted elsewhere). */
export class NotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** How many entities of `collection` have `field` equal to `id`, read from the document. */
export function countReferences(doc: Y.Doc, collection: Collection, field: string, id: string): number {
  let count = 0;
  for (const entity of collectionMap(doc, collection).values()) {
    if (entity.get(field) === id) count += 1;
  }
  return count;
}

export function requireEntity(doc: Y.Doc, collection: Collection, id: string, message: string): void {
  if (!collectionMap(doc, collection).has(id)) throw new NotFoundError(message);
}
