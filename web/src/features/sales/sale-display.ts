import { formatUsd, PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../../../shared/index.ts';
import { localDate } from '../../lib/format-date.ts';
import type { SaleRow } from './sale-rows.ts';

export const termsText = (months: number) => (months === 0 ? 'Paid in Full' : `${months} months`);

export const centsText = (cents: number) => formatUsd(cents / 100);

/** [P4] a sale as the payment form offers it: 'horse — buyer (balance $x)'. */
export const saleChoiceLabel = (sale: SaleRow) => `${sale.horseName} — ${sale.buyerName} (balance ${centsText(sale.balanceCents)})`;

export function moneyText(amount: string | null | undefined): string {
  if (!amount) return '$0';
  try {
    return formatUsd(amount);
  } catch {
    return amount;
  }
}

export const methodText = (method: string) => PAYMENT_METHOD_LABELS[method as PaymentMethod] ?? method;

/** Dates and timestamps in the viewer's locale (a calendar date stays that day everywhere). */
export const dateText = (value: string | null | undefined) => localDate(value);
