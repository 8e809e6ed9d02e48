import type * as Y from 'yjs';
import {
  cancelInput,
  getEntity,
  isEntityId,
  newId,
  refundInput,
  restoreHorseStatus,
  voidInput,
  type EntityFields,
} from '../../../../shared/index.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { writeStamped } from './device-time.ts';
import { requireEntity } from './references.ts';
import { validate } from './validate.ts';

export type CorrectionRepository = ReturnType<typeof createCorrectionRepository>;

/**
 * [P10]–[P12] [S17] Corrections, create-only like payments: each write adds one record to
 * `corrections` naming what it corrects, in one transaction, offline like every write. Nothing
 * is ever edited or deleted, so the history and every receipt stay true.
 */
export function createCorrectionRepository(doc: Y.Doc) {
  const record = (id: string, fields: EntityFields, alongside?: () => void): string => {
    doc.transact(() => {
      writeStamped(doc, 'corrections', id, { ...fields, createdAt: new Date().toISOString() });
      alongside?.();
    }, LOCAL_ORIGIN);
    return id;
  };
  return {
    /** [P10] Voids a payment: it no longer counts anywhere. Returns the correction's id. */
    voidPayment(paymentId: string, input: unknown, id: string = newId()): string {
      const { reason } = validate(voidInput, input);
      requireEntity(doc, 'payments', paymentId, 'Payment not found');
      const saleId = getEntity(doc, 'payments', paymentId)?.saleId;
      if (typeof saleId !== 'string' || !isEntityId(saleId)) throw new Error('Payment has no sale');
      return record(id, { kind: 'void', saleId, paymentId, amount: null, date: null, method: null, reason });
    },
    /** [S17] Cancels a sale. */
    cancelSale(saleId: string, input: unknown, id: string = newId()): string {
      const { reason } = validate(cancelInput, input);
      requireEntity(doc, 'sales', saleId, 'Sale not found');
      // [S18] In the same change, the horse gets back the status it had before the sale.
      return record(id, { kind: 'cancel', saleId, paymentId: null, amount: null, date: null, method: null, reason }, () =>
        restoreHorseStatus(doc, saleId, writeStamped),
      );
    },
    /** [P11] Records money paid back to the buyer. */
    refund(saleId: string, input: unknown, id: string = newId()): string {
      const fields = validate(refundInput, input);
      requireEntity(doc, 'sales', saleId, 'Sale not found');
      return record(id, { kind: 'refund', saleId, paymentId: null, ...fields });
    },
  };
}
