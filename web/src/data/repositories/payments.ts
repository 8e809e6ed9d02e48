import type * as Y from 'yjs';
import { collectionMap, newId, paymentInput, type PaymentInput } from '../../../../shared/index.ts';
import type { LedgerBook } from '../ledger/ledger-book.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { writeStamped } from './device-time.ts';
import { NotFoundError } from './references.ts';
import { validate } from './validate.ts';

export type PaymentRepository = ReturnType<typeof createPaymentRepository>;

/**
 * Payments, ledger entries, append-only ([P5]): there is no update or remove, so a payment
 * recorded offline on one phone can never be lost to an edit made on another. A payment of a
 * sale the document holds (a document of layout 2) goes into the document beside it.
 */
export function createPaymentRepository(doc: Y.Doc, book: LedgerBook) {
  return {
    /** Records the payment in `book`; returns its id. The sale must be known on this device. */
    create(input: PaymentInput, id: string = newId()): string {
      const fields = validate(paymentInput, input);
      const record = { ...fields, createdAt: new Date().toISOString() };
      if (collectionMap(doc, 'sales').has(fields.saleId)) {
        doc.transact(() => writeStamped(doc, 'payments', id, record), LOCAL_ORIGIN);
        return id;
      }
      if (!book.sale(fields.saleId)) throw new NotFoundError('Sale not found');
      book.record('payments', id, record);
      return id;
    },
  };
}
