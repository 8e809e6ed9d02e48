import type * as Y from 'yjs';
import {
  cancelInput,
  collectionMap,
  getEntity,
  isEntityId,
  newId,
  refundInput,
  restoreHorseStatus,
  restoreHorseStatusOf,
  voidInput,
  type EntityFields,
} from '../../../../shared/index.ts';
import type { LedgerBook } from '../ledger/ledger-book.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { writeStamped } from './device-time.ts';
import { NotFoundError } from './references.ts';
import { validate } from './validate.ts';

export type CorrectionRepository = ReturnType<typeof createCorrectionRepository>;

/**
 * [P10]–[P12] [S17] Corrections, ledger entries, create-only like payments: each write records
 * one entry naming what it corrects. Nothing is ever edited or deleted, so the history and
 * every receipt stay true. A correction of a sale the document holds (a document of layout
 * 2) goes into the document beside it, with the horse's status in the same change.
 */
export function createCorrectionRepository(doc: Y.Doc, book: LedgerBook) {
  const inDocument = (saleId: unknown) => typeof saleId === 'string' && collectionMap(doc, 'sales').has(saleId);
  const record = (id: string, fields: EntityFields, alongside?: () => void): string => {
    const stamped = { ...fields, createdAt: new Date().toISOString() };
    if (!inDocument(fields.saleId)) {
      book.record('corrections', id, stamped);
      return id;
    }
    doc.transact(() => {
      writeStamped(doc, 'corrections', id, stamped);
      alongside?.();
    }, LOCAL_ORIGIN);
    return id;
  };
  const requireSale = (saleId: string) => {
    const sale = getEntity(doc, 'sales', saleId) ?? book.sale(saleId);
    if (!sale) throw new NotFoundError('Sale not found');
    return sale;
  };
  return {
    /** [P10] Voids a payment: it no longer counts anywhere. Returns the correction's id. */
    voidPayment(paymentId: string, input: unknown, id: string = newId()): string {
      const { reason } = validate(voidInput, input);
      const saleId = (getEntity(doc, 'payments', String(paymentId)) ?? book.payment(String(paymentId)))?.saleId;
      if (saleId === undefined) throw new NotFoundError('Payment not found');
      if (typeof saleId !== 'string' || !isEntityId(saleId)) throw new Error('Payment has no sale');
      return record(id, { kind: 'void', saleId, paymentId, amount: null, date: null, method: null, reason });
    },
    /** [S17] Cancels a sale. */
    cancelSale(saleId: string, input: unknown, id: string = newId()): string {
      const { reason } = validate(cancelInput, input);
      const cancel = { kind: 'cancel', saleId, paymentId: null, amount: null, date: null, method: null, reason };
      if (inDocument(saleId)) return record(id, cancel, () => restoreHorseStatus(doc, saleId, writeStamped));
      const sale = requireSale(String(saleId));
      // [S18] The horse gets back the status it had before the sale, at once, offline too,
      // unless another sale of it stands.
      if (!book.soldByAnother(sale.horseId, saleId)) {
        doc.transact(() => restoreHorseStatusOf(doc, sale as EntityFields, writeStamped), LOCAL_ORIGIN);
      }
      return record(id, cancel);
    },
    /** [P11] Records money paid back to the buyer. */
    refund(saleId: string, input: unknown, id: string = newId()): string {
      const fields = validate(refundInput, input);
      requireSale(String(saleId));
      return record(id, { kind: 'refund', saleId, paymentId: null, ...fields });
    },
  };
}
