import type * as Y from 'yjs';
import { newId, paymentInput, type PaymentInput } from '../../../../shared/index.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { requireEntity } from './references.ts';
import { validate } from './validate.ts';
import { writeStamped } from './device-time.ts';

export type PaymentRepository = ReturnType<typeof createPaymentRepository>;

/**
 * Payments are append-only ([P5]): there is no update or remove, so a payment
 * recorded offline on one phone can never be lost to an edit made on another.
 */
export function createPaymentRepository(doc: Y.Doc) {
  return {
    /** Returns the id of the new payment. The sale must exist. */
    create(input: PaymentInput, id: string = newId()): string {
      const fields = validate(paymentInput, input);
      requireEntity(doc, 'sales', fields.saleId, 'Sale not found');
      doc.transact(() => writeStamped(doc, 'payments', id, { ...fields, createdAt: new Date().toISOString() }), LOCAL_ORIGIN);
      return id;
    },
  };
}
