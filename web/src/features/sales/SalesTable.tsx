import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { ConflictMarker } from '../../ui/ConflictMarker.tsx';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { DollarIcon, EyeIcon } from '../../ui/icons.tsx';
import type { SaleRow } from './sale-rows.ts';
import { dateText, moneyText, termsText } from './sale-display.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { DATE_ORDER, dateSortValue, moneySortValue, NUMBER_ORDER, type ListSort } from '../../ui/list-sort.ts';
import { searchText } from '../../ui/use-list-view.ts';

export const SALE_COLUMNS: Column<SaleRow>[] = [
  {
    header: 'Horse',
    key: 'horseName',
    cell: (sale) => (
      <>
        <span className="font-medium">{sale.horseName}</span>
        <ConflictMarker collection="sales" id={sale.id} />
      </>
    ),
    sortValue: (sale) => sale.horseName,
  },
  { header: 'Buyer', key: 'buyerName', sortValue: (sale) => sale.buyerName },
  {
    header: 'Sale Price',
    key: 'salePrice',
    cell: (sale) => moneyText(sale.salePrice),
    sortValue: (sale) => moneySortValue(sale.salePrice),
    sortNames: NUMBER_ORDER,
  },
  {
    header: 'Down Payment',
    key: 'downPayment',
    cell: (sale) => moneyText(sale.downPayment),
    phone: 'none',
    sortValue: (sale) => moneySortValue(sale.downPayment),
    sortNames: NUMBER_ORDER,
  },
  {
    header: 'Terms',
    key: 'termsMonths',
    cell: (sale) => termsText(sale.termsMonths),
    sortValue: (sale) => sale.termsMonths,
    sortNames: ['(shortest first)', '(longest first)'],
  },
  {
    header: 'Status',
    key: 'standing',
    cell: (sale) => <StatusBadge status={sale.standing} />,
    sortValue: (sale) => sale.standing,
    phone: 'status',
  },
  {
    header: 'Created',
    key: 'createdAt',
    cell: (sale) => dateText(sale.createdAt),
    sortValue: (sale) => dateSortValue(sale.createdAt),
    sortNames: DATE_ORDER,
  },
];

/** [B6] A sale is found by its horse, its buyer or its status; newest first until another order is chosen. */
export const saleText = (sale: SaleRow) => searchText(sale.horseName, sale.buyerName, sale.standing);
export const NEWEST_SALES: ListSort = { key: 'createdAt', direction: 'desc' };

type Props = {
  rows: SaleRow[] | undefined;
  canWrite: boolean;
  onView: (sale: SaleRow) => void;
  onAddPayment: (sale: SaleRow) => void;
  sort: ListSort;
  onSort: (sort: ListSort) => void;
};

export function SalesTable({ rows, canWrite, onView, onAddPayment, sort, onSort }: Props) {
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  const actions: RowAction<SaleRow>[] = [
    { label: 'View Details', icon: <EyeIcon />, onClick: onView, main: true },
    // [P4]: only Open sales can take a payment.
    { label: 'Add Payment', icon: <DollarIcon />, onClick: onAddPayment, hidden: (sale) => !canWrite || sale.status !== 'Open' },
  ];
  return (
    <DataTable rows={rows} columns={SALE_COLUMNS} actions={actions} label="Sales" emptyText="No sales found" sort={sort} onSort={onSort} />
  );
}
