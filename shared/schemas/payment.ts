import { z } from 'zod';
import { MAX_MEMO_LENGTH, PAYMENT_METHODS } from '../constants.ts';
import { toCents } from '../money.ts';
import { isoDate, money, optionalText, required, requiredRef } from './common.ts';

/** [P2] payment form; also POST /api/payments and the server's check of synced payments. */
export const paymentInput = z.object({
  saleId: requiredRef('Sale is required'),
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
  memo: optionalText(MAX_MEMO_LENGTH).default(null),
  // [P2]: always sent as null; installments are computed from the sale's schedule.
  installmentId: z.null({ error: 'installmentId must be null' }).default(null),
});

export type PaymentInput = z.input<typeof paymentInput>;
export type PaymentFields = z.output<typeof paymentInput>;
export type Payment = PaymentFields & { id: string; createdAt: string };
