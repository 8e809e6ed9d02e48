import { toCsv, type CsvColumn } from '../../ui/export-csv.ts';
import type { PaymentRow, SaleRow } from './sale-rows.ts';
import { methodText, termsText } from './sale-display.ts';

/** Amounts as plain decimals so spreadsheets can sum them. */
const SALE_CSV: CsvColumn<SaleRow>[] = [
  { header: 'Horse', value: (sale) => sale.horseName },
  { header: 'Buyer', value: (sale) => sale.buyerName },
  { header: 'Sale Price', value: (sale) => sale.salePrice },
  { header: 'Down Payment', value: (sale) => sale.downPayment },
  { header: 'Terms', value: (sale) => termsText(sale.termsMonths) },
  { header: 'Interest APR', value: (sale) => sale.interestApr },
  { header: 'Schedule Start Date', value: (sale) => sale.scheduleStartDate },
  { header: 'Paid', value: (sale) => (sale.paidCents / 100).toFixed(2) },
  { header: 'Balance', value: (sale) => (sale.balanceCents / 100).toFixed(2) },
  { header: 'Past Due', value: (sale) => (sale.pastDueCents / 100).toFixed(2) },
  { header: 'Status', value: (sale) => sale.standing },
  { header: 'Created', value: (sale) => sale.createdAt },
];

const PAYMENT_CSV: CsvColumn<PaymentRow>[] = [
  { header: 'Sale', value: (payment) => payment.horseName },
  { header: 'Buyer', value: (payment) => payment.buyerName },
  { header: 'Amount', value: (payment) => payment.amount },
  { header: 'Method', value: (payment) => methodText(payment.method) },
  { header: 'Date', value: (payment) => payment.date },
  { header: 'Memo', value: (payment) => payment.memo },
];

export const salesCsv = (rows: SaleRow[]) => toCsv(SALE_CSV, rows);
export const paymentsCsv = (rows: PaymentRow[]) => toCsv(PAYMENT_CSV, rows);
