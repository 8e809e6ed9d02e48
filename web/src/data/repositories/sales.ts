import type * as Y from 'yjs';
import { markHorseSold, newId, saleInput, type SaleInput } from '../../../../shared/index.ts';
import type { LedgerBook } from '../ledger/ledger-book.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { requireEntity } from './references.ts';
import { validate } from './validate.ts';
import { writeStamped } from './device-time.ts';

export type SaleRepository = ReturnType<typeof createSaleRepository>;

/**
 * Sales, ledger entries (docs/sync-rules.md §7); status is derived from payments and never
 * stored ([S7], [Y5]). Create only: a sale is not changed once recorded ([S11]).
 */
export function createSaleRepository(doc: Y.Doc, book: LedgerBook) {
  return {
    /** Records the sale in `book`; returns its id. The horse and the buyer must exist. */
    create(input: SaleInput, id: string = newId()): string {
      const fields = validate(saleInput, input);
      requireEntity(doc, 'horses', fields.horseId, 'Horse not found');
      requireEntity(doc, 'buyers', fields.buyerId, 'Buyer not found');
      let previousStatusId: string | null = null;
      // [S18] The horse shows Sold at once, offline too (an edit of the horse, in the document);
      // the sale keeps the status it had. The server marks it the same once the sale arrives.
      doc.transact(() => (previousStatusId = markHorseSold(doc, fields.horseId, writeStamped)), LOCAL_ORIGIN);
      book.record('sales', id, { ...fields, previousStatusId, createdAt: new Date().toISOString() });
      return id;
    },
  };
}
