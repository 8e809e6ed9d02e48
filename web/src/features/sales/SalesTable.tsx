import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { DollarIcon, EyeIcon } from '../../ui/icons.tsx';
import type { SaleRow } from './sale-rows.ts';
import { dateText, moneyText, termsText } from './sale-display.ts';
import { StatusBadge } from './StatusBadge.tsx';

export const SALE_COLUMNS: Column<SaleRow>[] = [
  { header: 'Horse', key: 'horseName', cell: (sale) => <span className="font-medium">{sale.horseName}</span> },
  { header: 'Buyer', key: 'buyerName' },
  { header: 'Sale Price', key: 'salePrice', cell: (sale) => moneyText(sale.salePrice) },
  { header: 'Down Payment', key: 'downPayment', cell: (sale) => moneyText(sale.downPayment) },
  { header: 'Terms', key: 'termsMonths', cell: (sale) => termsText(sale.termsMonths) },
  { header: 'Status', key: 'standing', cell: (sale) => <StatusBadge status={sale.standing} /> },
  { header: 'Created', key: 'createdAt', cell: (sale) => dateText(sale.createdAt) },
];

type Props = {
  rows: SaleRow[] | undefined;
  canWrite: boolean;
  onView: (sale: SaleRow) => void;
  onAddPayment: (sale: SaleRow) => void;
};

export function SalesTable({ rows, canWrite, onView, onAddPayment }: Props) {
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  const actions: RowAction<SaleRow>[] = [
    { label: 'View Details', icon: <EyeIcon />, onClick: onView },
    // [P4]: only Open sales can take a payment.
    { label: 'Add Payment', icon: <DollarIcon />, onClick: onAddPayment, hidden: (sale) => !canWrite || sale.status !== 'Open' },
  ];
  return <DataTable rows={rows} columns={SALE_COLUMNS} actions={actions} label="Sales" emptyText="No sales found" />;
}
