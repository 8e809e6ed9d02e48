import { z } from 'zod';
import { MAX_MEMO_LENGTH, PAYMENT_METHODS } from '../constants.ts';
import { toCents } from '../money.ts';
import { isoDate, money, optionalText, required, requiredRef } from './common.ts';

/**
 * [P10]–[P12] Corrections: a payment voided, a sale cancelled, money refunded to the buyer. Each
 * is a new create-only record naming what it corrects (like a payment), never an edit or a
 * delete of it, so the history and every receipt stay true. One collection, `corrections`,
 * holds the three kinds.
 */
export const CORRECTION_KINDS = ['void', 'cancel', 'refund'] as const;
export type CorrectionKind = (typeof CORRECTION_KINDS)[number];

const reason = required('Reason is required', optionalText(MAX_MEMO_LENGTH));

/** [P10] Void a payment: the form's and REST's body (the sale is the payment's). */
export const voidInput = z.object({ reason });

/** [S17] Cancel a sale. */
export const cancelInput = z.object({ reason });

/** [P11] A refund to the buyer. */
export const refundInput = z.object({
  amount: required(
    'Amount is required',
    money.refine((amount) => toCents(amount) > 0, 'Amount must be greater than 0'),
  ),
  date: required('Date is required', isoDate),
  method: z.enum(PAYMENT_METHODS, {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ''
        ? 'Payment method is required'
        : `Payment method must be one of ${PAYMENT_METHODS.join(', ')}`,
  }),
  reason,
});

const nothing = (field: string) => z.null({ error: `${field} must be null for this kind` }).default(null);

/**
 * A correction as the document holds it: `kind`, the sale it belongs to, and per kind —
 * void: `paymentId`; refund: `amount`, `date`, `method`; every kind a `reason`.
 */
export const correctionRecord = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('void'),
      saleId: requiredRef('Sale is required'),
      paymentId: requiredRef('Payment is required'),
      amount: nothing('amount'),
      date: nothing('date'),
      method: nothing('method'),
      reason,
      createdAt: z.iso.datetime({ offset: true, error: 'Must be a timestamp' }),
    }),
    z.object({
      kind: z.literal('cancel'),
      saleId: requiredRef('Sale is required'),
      paymentId: nothing('paymentId'),
      amount: nothing('amount'),
      date: nothing('date'),
      method: nothing('method'),
      reason,
      createdAt: z.iso.datetime({ offset: true, error: 'Must be a timestamp' }),
    }),
    z.object({
      kind: z.literal('refund'),
      saleId: requiredRef('Sale is required'),
      paymentId: nothing('paymentId'),
      ...refundInput.shape,
      createdAt: z.iso.datetime({ offset: true, error: 'Must be a timestamp' }),
    }),
  ],
  { error: `Kind must be one of ${CORRECTION_KINDS.join(', ')}` },
);

export type Correction = z.output<typeof correctionRecord> & { id: string };
