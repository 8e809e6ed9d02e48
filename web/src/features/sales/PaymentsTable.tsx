import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { DownloadIcon } from '../../ui/icons.tsx';
import type { PaymentRow } from './sale-rows.ts';
import { dateText, methodText, moneyText } from './sale-display.ts';

export const PAYMENT_COLUMNS: Column<PaymentRow>[] = [
  { header: 'Sale', key: 'horseName', cell: (payment) => <span className="font-medium">{payment.horseName}</span> },
  {
    header: 'Amount',
    key: 'amount',
    // [P10] A void payment stays listed, struck through, with why: it counts nowhere.
    cell: (payment) =>
      payment.voided ? (
        <span>
          <s>{moneyText(payment.amount)}</s> <span className="badge badge-ghost badge-sm">Void</span>
          <span className="block text-xs text-base-content/60">{payment.voided.reason}</span>
        </span>
      ) : (
        moneyText(payment.amount)
      ),
  },
  { header: 'Method', key: 'method', cell: (payment) => methodText(payment.method) },
  { header: 'Date', key: 'date', cell: (payment) => dateText(payment.date) },
  { header: 'Memo', key: 'memo', cell: (payment) => payment.memo || '—' },
];

type Props = {
  rows: PaymentRow[] | undefined;
  onReceipt: (payment: PaymentRow) => void;
  /** [P10] Staff and Admins void a payment (with a reason); absent for a Viewer. */
  onVoid?: ((payment: PaymentRow) => void) | undefined;
};

export function PaymentsTable({ rows, onReceipt, onVoid }: Props) {
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  const actions: RowAction<PaymentRow>[] = [{ label: 'Download Receipt', icon: <DownloadIcon />, onClick: onReceipt }];
  if (onVoid)
    actions.push({ label: 'Void Payment', onClick: onVoid, destructive: true, hidden: (payment) => payment.voided !== undefined });
  return <DataTable rows={rows} columns={PAYMENT_COLUMNS} actions={actions} label="Payments" emptyText="No payments found" />;
}
