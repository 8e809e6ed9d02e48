import { useState } from 'react';
import { AddButton } from '../../ui/AddButton.tsx';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Buyer } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { EyeIcon, PencilIcon, TrashIcon } from '../../ui/icons.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { useCanWrite } from '../auth/use-can-write.ts';
import { useUndoableDelete } from '../../ui/undo-delete.ts';
import { MissingRecord, useRecordLink, type RecordLink } from '../../ui/record-link.tsx';
import { contactColumns } from '../contacts/contact-columns.tsx';
import { contactName } from '../contacts/contact-name.ts';
import { BuyerDetailsDialog } from './BuyerDetailsDialog.tsx';
import { BuyerDialog } from './BuyerDialog.tsx';
import { ListControls } from '../../ui/ListControls.tsx';
import type { ListSort } from '../../ui/list-sort.ts';
import { searchText, useListView } from '../../ui/use-list-view.ts';

const COLUMNS: Column<Buyer>[] = contactColumns('buyers');

/** [B6] A buyer is found by name, phone or e-mail. */
const buyerText = (row: Buyer) => searchText(contactName(row), row.phone, row.email);
const BY_NAME: ListSort = { key: 'name', direction: 'asc' };

/** [C5] Buyers. Delete asks no confirmation, as in the seed. */
export function BuyersScreen({ link }: { link?: RecordLink | undefined }) {
  const { db, writes } = useRanchData();
  const rows = useLiveQuery(() => db.buyers.orderBy('lastName').toArray(), [db]);
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  const view = useListView(rows, COLUMNS, buyerText, BY_NAME);
  const canWrite = useCanWrite();
  const toast = useToast();
  const [dialog, setDialog] = useState<{ editing: Buyer | null } | null>(null);
  // [B10] The buyer viewed is named by the address, and shown as the list has it now.
  const { id: viewingId, open: showDetails } = useRecordLink(link);
  const viewing = viewingId && rows ? (rows.find((row) => row.id === viewingId) ?? null) : undefined;

  const deleted = useUndoableDelete();
  const remove = async (buyer: Buyer) => {
    try {
      await writes.buyers.remove(buyer.id);
    } catch (error) {
      // A buyer with sales is kept: the sale must keep its buyer.
      console.error(error);
      toast({ title: 'Error', description: 'Failed to delete buyer', variant: 'destructive' });
      return;
    }
    // [B12] Undo writes the buyer again, from its last fields.
    deleted('Buyer', () => writes.buyers.create(buyer));
  };

  const viewAction: RowAction<Buyer> = { label: 'View Details', icon: <EyeIcon />, onClick: (row) => showDetails(row.id), main: true };
  const actions: RowAction<Buyer>[] = canWrite
    ? [
        viewAction,
        { label: 'Edit', icon: <PencilIcon />, onClick: (row) => setDialog({ editing: row }) },
        { label: 'Delete', icon: <TrashIcon />, onClick: remove, destructive: true },
      ]
    : [viewAction];

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold max-md:sr-only">Buyers</h1>
          <p className="text-base-content/70 max-md:hidden">Manage buyer contacts and information</p>
        </div>
        {canWrite && <AddButton label="Add Buyer" onClick={() => setDialog({ editing: null })} />}
      </div>
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body p-4 md:p-6">
          <h2 className="card-title">All Buyers</h2>
          <ListControls noun="buyers" one="buyer" searchHint="name, phone or e-mail" view={view} columns={COLUMNS} />
          <DataTable
            rows={view.shown}
            columns={COLUMNS}
            actions={actions}
            emptyText="No buyers found"
            label="All Buyers"
            sort={view.sort}
            onSort={view.setSort}
          />
        </div>
      </div>
      {viewing === null && <MissingRecord what="buyer" onBack={() => showDetails(null)} />}
      <BuyerDetailsDialog
        buyer={viewing ?? null}
        onClose={() => showDetails(null)}
        onEdit={canWrite ? () => viewing && setDialog({ editing: viewing }) : undefined}
      />
      <BuyerDialog open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
    </section>
  );
}
