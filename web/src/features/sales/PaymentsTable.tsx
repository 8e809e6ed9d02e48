import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { ConflictMarker } from '../../ui/ConflictMarker.tsx';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { DownloadIcon } from '../../ui/icons.tsx';
import type { PaymentRow } from './sale-rows.ts';
import { dateText, methodText, moneyText } from './sale-display.ts';
import { DATE_ORDER, dateSortValue, moneySortValue, NUMBER_ORDER, type ListSort } from '../../ui/list-sort.ts';
import { searchText } from '../../ui/use-list-view.ts';

export const PAYMENT_COLUMNS: Column<PaymentRow>[] = [
  {
    header: 'Sale',
    key: 'horseName',
    cell: (payment) => (
      <>
        <span className="font-medium">{payment.horseName}</span>
        <ConflictMarker collection="payments" id={payment.id} />
      </>
    ),
    sortValue: (payment) => payment.horseName,
  },
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
    sortValue: (payment) => moneySortValue(payment.amount),
    sortNames: NUMBER_ORDER,
    phone: 'status',
    // [B16] Line one: a void payment's amount struck through and 'Void'; its reason is in line two.
    phoneCell: (payment) =>
      payment.voided ? (
        <span>
          <s>{moneyText(payment.amount)}</s> <span className="badge badge-ghost badge-sm">Void</span>
        </span>
      ) : (
        <span className="font-semibold">{moneyText(payment.amount)}</span>
      ),
  },
  { header: 'Method', key: 'method', cell: (payment) => methodText(payment.method), sortValue: (payment) => methodText(payment.method) },
  {
    header: 'Date',
    key: 'date',
    cell: (payment) => dateText(payment.date),
    sortValue: (payment) => dateSortValue(payment.date),
    sortNames: DATE_ORDER,
  },
  { header: 'Memo', key: 'memo', cell: (payment) => payment.memo || '—', phoneCell: (payment) => payment.voided?.reason ?? payment.memo },
];

/** [B6] A payment is found by its sale's horse and buyer, its method or its memo; most recent first until another order is chosen. */
export const paymentText = (payment: PaymentRow) =>
  searchText(payment.horseName, payment.buyerName, methodText(payment.method), payment.memo);
export const NEWEST_PAYMENTS: ListSort = { key: 'date', direction: 'desc' };

type Props = {
  rows: PaymentRow[] | undefined;
  onReceipt: (payment: PaymentRow) => void;
  /** [P10] Staff and Admins void a payment (with a reason); absent for a Viewer. */
  onVoid?: ((payment: PaymentRow) => void) | undefined;
  sort: ListSort;
  onSort: (sort: ListSort) => void;
};

export function PaymentsTable({ rows, onReceipt, onVoid, sort, onSort }: Props) {
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  const actions: RowAction<PaymentRow>[] = [{ label: 'Download Receipt', icon: <DownloadIcon />, onClick: onReceipt, main: true }];
  if (onVoid)
    actions.push({ label: 'Void Payment', onClick: onVoid, destructive: true, hidden: (payment) => payment.voided !== undefined });
  return (
    <DataTable
      rows={rows}
      columns={PAYMENT_COLUMNS}
      actions={actions}
      label="Payments"
      emptyText="No payments found"
      sort={sort}
      onSort={onSort}
    />
  );
}
