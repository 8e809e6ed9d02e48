import { useState } from 'react';
import { AddButton } from '../../ui/AddButton.tsx';
import { formatUsd } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { localDate } from '../../lib/format-date.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { csvFilename, downloadCsv, toCsv } from '../../ui/export-csv.ts';
import { DownloadIcon, EyeIcon, PencilIcon, TrashIcon } from '../../ui/icons.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { useCanWrite } from '../auth/use-can-write.ts';
import { useUndoableDelete } from '../../ui/undo-delete.ts';
import { MissingRecord, useRecordLink, type RecordLink } from '../../ui/record-link.tsx';
import { contactColumns } from '../contacts/contact-columns.tsx';
import { contactName } from '../contacts/contact-name.ts';
import { SupplierDetailsDialog } from './SupplierDetailsDialog.tsx';
import { SupplierDialog } from './SupplierDialog.tsx';
import { useSupplierRows, type SupplierRow } from './use-supplier-rows.ts';
import { ListControls } from '../../ui/ListControls.tsx';
import { DATE_ORDER, moneySortValue, NUMBER_ORDER, type ListSort } from '../../ui/list-sort.ts';
import { searchText, useListView } from '../../ui/use-list-view.ts';

const COLUMNS: Column<SupplierRow>[] = [
  ...contactColumns<SupplierRow>('owners'),
  {
    header: 'Total Horses',
    key: 'totalHorses',
    cell: (row) => String(row.totalHorses),
    phoneCell: (row) => `${row.totalHorses} ${row.totalHorses === 1 ? 'horse' : 'horses'}`,
    sortValue: (row) => row.totalHorses,
    sortNames: NUMBER_ORDER,
  },
  {
    header: 'Total Value',
    key: 'totalValue',
    cell: (row) => formatUsd(row.totalValue),
    sortValue: (row) => moneySortValue(row.totalValue),
    sortNames: NUMBER_ORDER,
  },
  {
    header: 'Joined',
    key: 'createdAt',
    cell: (row) => localDate(row.createdAt),
    sortValue: (row) => row.createdAt,
    sortNames: DATE_ORDER,
    phone: 'none',
  },
];

/** [B6] A supplier is found by name, phone or e-mail. */
const supplierText = (row: SupplierRow) => searchText(contactName(row), row.phone, row.email);
const BY_NAME: ListSort = { key: 'name', direction: 'asc' };

function exportSuppliers(rows: SupplierRow[]) {
  const csv = toCsv<SupplierRow>(
    [
      { header: 'Name', value: contactName },
      { header: 'Phone', value: (row) => row.phone },
      { header: 'Email', value: (row) => row.email },
      { header: 'Total Horses', value: (row) => row.totalHorses },
      { header: 'Total Value', value: (row) => row.totalValue },
      { header: 'Joined', value: (row) => row.createdAt?.slice(0, 10) },
    ],
    rows,
  );
  downloadCsv(csvFilename('suppliers'), csv);
}

/** [C1] Suppliers (/owners). */
export function SuppliersScreen({ link }: { link?: RecordLink | undefined }) {
  const rows = useSupplierRows();
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  const view = useListView(rows, COLUMNS, supplierText, BY_NAME);
  const canWrite = useCanWrite();
  const { writes } = useRanchData();
  const toast = useToast();
  const [dialog, setDialog] = useState<{ editing: SupplierRow | null } | null>(null);
  // [B10] The supplier viewed is named by the address, and shown as the list has it now.
  const { id: viewingId, open: showDetails } = useRecordLink(link);
  const viewing = viewingId && rows ? (rows.find((row) => row.id === viewingId) ?? null) : undefined;
  const [deleting, setDeleting] = useState<SupplierRow | null>(null);

  const deleted = useUndoableDelete();
  const remove = async (supplier: SupplierRow) => {
    setDeleting(null);
    try {
      await writes.owners.remove(supplier.id);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to delete supplier', variant: 'destructive' });
      return;
    }
    // [B12] Undo writes the supplier again, from its last fields.
    deleted('Supplier', () => writes.owners.create(supplier));
  };

  const actions: RowAction<SupplierRow>[] = [
    { label: 'View Details', icon: <EyeIcon />, onClick: (row) => showDetails(row.id), main: true },
  ];
  if (canWrite) {
    actions.push(
      { label: 'Edit', icon: <PencilIcon />, onClick: (row) => setDialog({ editing: row }) },
      { label: 'Delete', icon: <TrashIcon />, onClick: setDeleting, destructive: true },
    );
  }

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold max-md:sr-only">Suppliers</h1>
          <p className="text-base-content/70 max-md:hidden">Manage horse suppliers and their information</p>
        </div>
        <div className="flex gap-2">
          <button
            type="button"
            className="btn btn-outline"
            disabled={!rows || rows.length === 0}
            onClick={() => rows && exportSuppliers(rows)}
          >
            <DownloadIcon />
            Export
          </button>
          {canWrite && <AddButton label="Add Supplier" onClick={() => setDialog({ editing: null })} />}
        </div>
      </div>
      <ListControls noun="suppliers" one="supplier" searchHint="name, phone or e-mail" view={view} columns={COLUMNS} />
      <DataTable
        rows={view.shown}
        columns={COLUMNS}
        actions={actions}
        emptyText="No suppliers found"
        label="Suppliers"
        sort={view.sort}
        onSort={view.setSort}
      />
      <SupplierDialog open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
      {viewing === null && <MissingRecord what="supplier" onBack={() => showDetails(null)} />}
      <SupplierDetailsDialog
        supplier={viewing ?? null}
        onClose={() => showDetails(null)}
        onEdit={canWrite ? () => viewing && setDialog({ editing: viewing }) : undefined}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Are you sure you want to delete this supplier?"
        confirmDisabled={(deleting?.totalHorses ?? 0) > 0}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        {deleting &&
          (deleting.totalHorses > 0 ? (
            <p>
              {contactName(deleting)} still supplies {deleting.totalHorses} {deleting.totalHorses === 1 ? 'horse' : 'horses'}. Choose
              another supplier (or Ranch) for {deleting.totalHorses === 1 ? 'it' : 'them'} first.
            </p>
          ) : (
            <p>{contactName(deleting)} will be removed on every device.</p>
          ))}
      </ConfirmDialog>
    </section>
  );
}
