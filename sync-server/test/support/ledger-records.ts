import type { EntityFields } from '../../../shared/index.ts';

/** When the tests' sales and payments say they were made. */
export const RECORDED_AT = '2026-12-01T10:00:00.000Z';

/** A sale's record as the ledger stores it (every field of RECORD_FIELDS.sales). */
export const saleFields = (horseId: string, buyerId: string, salePrice: string): EntityFields => ({
  horseId,
  buyerId,
  salePrice,
  downPayment: '0.00',
  termsMonths: 3,
  interestApr: null,
  scheduleStartDate: null,
  previousStatusId: null,
  createdAt: RECORDED_AT,
});

/** A payment's record as the ledger stores it. */
export const paymentFields = (saleId: string, amount: string): EntityFields => ({
  saleId,
  amount,
  date: '2026-12-02',
  method: 'Cash',
  memo: null,
  installmentId: null,
  createdAt: RECORDED_AT,
});
