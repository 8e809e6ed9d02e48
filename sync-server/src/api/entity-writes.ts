import type * as Y from 'yjs';
import { apiError } from '../http/errors.ts';
import type { LedgerSaleIndex } from '../ledger/sale-index.ts';
import { collectionMap, COLLECTION_NOUN, inUseMessage, REFERENCES, referencesTo, type Collection } from '../../../shared/index.ts';

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

/**
 * 409 while other entities of the document still refer to this one (a horse's supplier, a
 * sale's horse …), or ledger sales name it (`ledgerSales`, the host's index: a horse or buyer).
 */
export function refuseIfReferenced(doc: Y.Doc, collection: Collection, id: string, ledgerSales?: LedgerSaleIndex): void {
  const [referrers] = referencesTo(doc, collection, id);
  if (referrers) throw apiError(409, inUseMessage(collection, referrers));
  const sales = collection === 'horses' || collection === 'buyers' ? (ledgerSales?.salesNaming(collection, id) ?? 0) : 0;
  if (sales > 0) throw apiError(409, inUseMessage(collection, { collection: 'sales', count: sales }));
}
