import { z } from 'zod';
import { PAYMENT_TERMS } from '../constants.ts';
import { toCents } from '../money.ts';
import { blankToNull, money, optionalDate, optionalRef, required, requiredRef } from './common.ts';

const terms = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : blankToNull(value)),
  z
    .number({ error: 'Payment terms are required' })
    .refine((value) => (PAYMENT_TERMS as readonly number[]).includes(value), 'Payment terms must be 0, 3, 6 or 12 months'),
);

const apr = z.preprocess((value) => {
  const blank = blankToNull(value);
  return typeof blank === 'string' ? Number(blank) : blank;
}, z
  .number({ error: 'Interest APR must be a number' })
  .min(0, 'Interest APR cannot be negative')
  .max(100, 'Interest APR must be at most 100')
  .nullable());

/** A sale as the server checks it when synced, and devices read it ([S3] without [S15]). */
export const saleRecordFields = z
  .object({
    horseId: requiredRef('Horse is required'),
    buyerId: requiredRef('Buyer is required'),
    salePrice: required('Sale price is required', money),
    downPayment: z.preprocess((value) => blankToNull(value) ?? '0', money).prefault('0'),
    termsMonths: terms,
    interestApr: apr.default(null),
    scheduleStartDate: optionalDate.default(null),
    /**
     * [S18] The horse's status before the sale marked it Sold, given back when the sale is
     * cancelled; set by whoever records the sale (the repository, REST), never by the form.
     */
    previousStatusId: optionalRef.default(null),
  })
  .refine((sale) => toCents(sale.downPayment) <= toCents(sale.salePrice), {
    message: 'Down payment cannot exceed the sale price',
    path: ['downPayment'],
    // Only once both amounts are valid; otherwise their own messages say enough.
    when: (payload) => payload.issues.length === 0,
  });

/**
 * [S3] [S15] sale form and POST /api/sales: 'Paid in Full' (terms 0) means the whole price is
 * received at the sale, so the down payment is the sale price. Synced sales are checked
 * without this rule ([S15]): a sale is create-only, and one recorded otherwise stays as it was.
 */
export const saleInput = saleRecordFields.refine(
  (sale) => sale.termsMonths !== 0 || toCents(sale.downPayment) === toCents(sale.salePrice),
  {
    message: 'Paid in Full: the down payment is the whole sale price',
    path: ['downPayment'],
    when: (payload) => payload.issues.length === 0,
  },
);

export type SaleInput = z.input<typeof saleInput>;
export type SaleFields = z.output<typeof saleInput>;
export const SALE_STATUSES = ['Open', 'Paid', 'Cancelled'] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];
/** A sale as stored (status is derived, never stored) plus its creation time. */
export type StoredSale = SaleFields & { id: string; createdAt: string };
export type Sale = StoredSale & { status: SaleStatus };
