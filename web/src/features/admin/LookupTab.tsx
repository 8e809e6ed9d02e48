import { useMemo, useState } from 'react';
import { AddButton } from '../../ui/AddButton.tsx';
import { useLiveQuery } from 'dexie-react-hooks';
import type { LookupItem, LookupKind } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { ConflictMarker } from '../../ui/ConflictMarker.tsx';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { PencilIcon, PowerIcon } from '../../ui/icons.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { LookupDialog } from './LookupDialog.tsx';
import { lookupTexts } from './lookup-texts.ts';

/** One list per kind, so each name carries that kind's conflict marker ([T8]). */
const columnsOf = (kind: LookupKind): Column<LookupItem>[] => [
  {
    header: 'Name',
    key: 'name',
    cell: (row) => (
      <>
        <span className="font-medium">{row.name}</span>
        <ConflictMarker collection={kind} id={row.id} />
      </>
    ),
  },
  {
    header: 'Status',
    key: 'isActive',
    cell: (row) =>
      row.isActive !== false ? (
        <span className="badge badge-success badge-soft">Active</span>
      ) : (
        <span className="badge badge-ghost">Inactive</span>
      ),
    phone: 'status',
  },
];

/** One list of Administration: its card, Add dialog, and the rows with Edit and (De)activate. */
export function LookupTab({ kind, canWrite }: { kind: LookupKind; canWrite: boolean }) {
  const { db, writes } = useRanchData();
  const rows = useLiveQuery(() => db.table<LookupItem, string>(kind).orderBy('name').toArray(), [db, kind]);
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  const toast = useToast();
  const texts = lookupTexts(kind);
  const columns = useMemo(() => columnsOf(kind), [kind]);
  const [dialog, setDialog] = useState<{ editing: LookupItem | null } | null>(null);

  const setActive = async (item: LookupItem, isActive: boolean) => {
    try {
      await writes.lookups.setActive(kind, item.id, isActive);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: texts.updateFailed, variant: 'destructive' });
      return;
    }
    toast({ title: 'Success', description: isActive ? texts.activated : texts.deactivated, variant: 'success' });
  };

  const actions: RowAction<LookupItem>[] = canWrite
    ? [
        { label: 'Edit', icon: <PencilIcon />, onClick: (row) => setDialog({ editing: row }) },
        {
          label: 'Deactivate',
          icon: <PowerIcon />,
          onClick: (row) => setActive(row, false),
          destructive: true,
          hidden: (row) => row.isActive === false,
        },
        { label: 'Activate', icon: <PowerIcon />, onClick: (row) => setActive(row, true), hidden: (row) => row.isActive !== false },
      ]
    : [];

  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body p-4 md:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="card-title">{texts.cardTitle}</h2>
          {canWrite && <AddButton label={texts.addButton} small onClick={() => setDialog({ editing: null })} />}
        </div>
        <DataTable rows={rows} columns={columns} actions={actions} emptyText={texts.empty} label={texts.cardTitle} />
      </div>
      <LookupDialog kind={kind} open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
    </div>
  );
}
