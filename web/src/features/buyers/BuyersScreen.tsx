import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Buyer } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { EyeIcon, PencilIcon, TrashIcon } from '../../ui/icons.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { useCanWrite } from '../auth/use-can-write.ts';
import { EmailLink, PhoneLink } from '../contacts/contact-links.tsx';
import { contactName } from '../contacts/contact-name.ts';
import { BuyerDetailsDialog } from './BuyerDetailsDialog.tsx';
import { BuyerDialog } from './BuyerDialog.tsx';

const COLUMNS: Column<Buyer>[] = [
  { header: 'Name', key: 'name', cell: (row) => <span className="font-medium">{contactName(row)}</span> },
  { header: 'Phone', key: 'phone', cell: (row) => <PhoneLink phone={row.phone} /> },
  { header: 'Email', key: 'email', cell: (row) => <EmailLink email={row.email} /> },
];

/** [C5] Buyers. Delete asks no confirmation, as in the seed. */
export function BuyersScreen() {
  const { db, writes } = useRanchData();
  const rows = useLiveQuery(() => db.buyers.orderBy('lastName').toArray(), [db]);
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  const canWrite = useCanWrite();
  const toast = useToast();
  const [dialog, setDialog] = useState<{ editing: Buyer | null } | null>(null);
  const [viewing, setViewing] = useState<Buyer | null>(null);

  const remove = async (buyer: Buyer) => {
    try {
      await writes.buyers.remove(buyer.id);
    } catch (error) {
      // A buyer with sales is kept: the sale must keep its buyer.
      console.error(error);
      toast({ title: 'Error', description: 'Failed to delete buyer', variant: 'destructive' });
      return;
    }
    toast({ title: 'Success', description: 'Buyer deleted successfully', variant: 'success' });
  };

  const view: RowAction<Buyer> = { label: 'View Details', icon: <EyeIcon />, onClick: setViewing };
  const actions: RowAction<Buyer>[] = canWrite
    ? [
        view,
        { label: 'Edit', icon: <PencilIcon />, onClick: (row) => setDialog({ editing: row }) },
        { label: 'Delete', icon: <TrashIcon />, onClick: remove, destructive: true },
      ]
    : [view];

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold">Buyers</h1>
          <p className="text-base-content/70">Manage buyer contacts and information</p>
        </div>
        {canWrite && (
          <button type="button" className="btn btn-primary" onClick={() => setDialog({ editing: null })}>
            Add Buyer
          </button>
        )}
      </div>
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body p-4 md:p-6">
          <h2 className="card-title">All Buyers</h2>
          <DataTable rows={rows} columns={COLUMNS} actions={actions} emptyText="No buyers found" label="All Buyers" />
        </div>
      </div>
      <BuyerDetailsDialog buyer={viewing} onClose={() => setViewing(null)} />
      <BuyerDialog open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
    </section>
  );
}
