import type * as Y from 'yjs';
import { collectionMap, inUseMessage, referencesTo, type Collection } from '../../../../shared/index.ts';

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

/**
 * Throws InUseError while other entities of the document refer to this one (shared
 * REFERENCES: a supplier's horses, a horse's or a buyer's sales), the check REST deletes make.
 */
export function refuseIfReferenced(doc: Y.Doc, collection: Collection, id: string): void {
  const [referrers] = referencesTo(doc, collection, id);
  if (referrers) throw new InUseError(inUseMessage(collection, referrers), referrers.count);
}

export function requireEntity(doc: Y.Doc, collection: Collection, id: string, message: string): void {
  if (!collectionMap(doc, collection).has(id)) throw new NotFoundError(message);
}
