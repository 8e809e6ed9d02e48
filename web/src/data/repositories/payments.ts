import { newId, paymentInput, type PaymentInput } from '../../../../shared/index.ts';
import type { LedgerBook } from '../ledger/ledger-book.ts';
import { NotFoundError } from './references.ts';
import { validate } from './validate.ts';

export type PaymentRepository = ReturnType<typeof createPaymentRepository>;

/**
 * Payments, ledger entries, append-only ([P5]): there is no update or remove, so a payment
 * recorded offline on one phone can never be lost to an edit made on another.
 */
export function createPaymentRepository(book: LedgerBook) {
  return {
    /** Records the payment in `book`; returns its id. The sale must be known on this device. */
    create(input: PaymentInput, id: string = newId()): string {
      const fields = validate(paymentInput, input);
      if (!book.sale(fields.saleId)) throw new NotFoundError('Sale not found');
      book.record('payments', id, { ...fields, createdAt: new Date().toISOString() });
      return id;
    },
  };
}
