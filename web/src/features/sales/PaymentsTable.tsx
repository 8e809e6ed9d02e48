import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { DownloadIcon } from '../../ui/icons.tsx';
import type { PaymentRow } from './sale-rows.ts';
import { dateText, methodText, moneyText } from './sale-display.ts';

export const PAYMENT_COLUMNS: Column<PaymentRow>[] = [
  { header: 'Sale', key: 'horseName', cell: (payment) => <span className="font-medium">{payment.horseName}</span> },
  { header: 'Amount', key: 'amount', cell: (payment) => moneyText(payment.amount) },
  { header: 'Method', key: 'method', cell: (payment) => methodText(payment.method) },
  { header: 'Date', key: 'date', cell: (payment) => dateText(payment.date) },
  { header: 'Memo', key: 'memo', cell: (payment) => payment.memo || '—' },
];

export function PaymentsTable({ rows, onReceipt }: { rows: PaymentRow[] | undefined; onReceipt: (payment: PaymentRow) => void }) {
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  return (
    <DataTable
      rows={rows}
      columns={PAYMENT_COLUMNS}
      actions={[{ label: 'Download Receipt', icon: <DownloadIcon />, onClick: onReceipt }]}
      label="Payments"
      emptyText="No payments found"
    />
  );
}
