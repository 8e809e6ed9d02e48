import { formatUsd, PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../../../shared/index.ts';
import { localDate } from '../profile/format-date.ts';

export const termsText = (months: number) => (months === 0 ? 'Paid in Full' : `${months} months`);

export const centsText = (cents: number) => formatUsd(cents / 100);

export function moneyText(amount: string | null | undefined): string {
  if (!amount) return '$0';
  try {
    return formatUsd(amount);
  } catch {
    return amount;
  }
}

export const methodText = (method: string) => PAYMENT_METHOD_LABELS[method as PaymentMethod] ?? method;

export const dateText = (value: string | null | undefined) => {
  if (!value) return 'N/A';
  // A calendar date is that day wherever the viewer is (not midnight UTC shifted).
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? localDate(`${value}T12:00:00`) : localDate(value);
};
