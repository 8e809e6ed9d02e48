import { useMemo, useState } from 'react';
import { AddButton } from '../../ui/AddButton.tsx';
import { useLiveQuery } from 'dexie-react-hooks';
import type { LookupItem, LookupKind } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { ConflictMarker } from '../../ui/ConflictMarker.tsx';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { EyeIcon, PencilIcon, PowerIcon } from '../../ui/icons.tsx';
import { ListControls } from '../../ui/ListControls.tsx';
import type { ListSort } from '../../ui/list-sort.ts';
import { MissingRecord, useRecordLink, type RecordLink } from '../../ui/record-link.tsx';
import { useListView } from '../../ui/use-list-view.ts';
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
    sortValue: (row) => row.name,
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
    // Active before Inactive, then by name.
    sortValue: (row) => (row.isActive !== false ? 0 : 1),
    sortNames: ['(active first)', '(inactive first)'],
  },
];

/** [B6] An item is found by its name. */
const nameOf = (row: LookupItem) => row.name;
const BY_NAME: ListSort = { key: 'name', direction: 'asc' };

/**
 * One list of Administration: its card, search, order and count ([B6]), Add dialog, and the
 * rows with Edit and (De)activate. The item edited is named by the address ([B10]:
 * /admin/<kind>/<id>), so its dialog has a link of its own.
 */
export function LookupTab({ kind, canWrite, link }: { kind: LookupKind; canWrite: boolean; link?: RecordLink | undefined }) {
  const { db, writes } = useRanchData();
  const rows = useLiveQuery(() => db.table<LookupItem, string>(kind).orderBy('name').toArray(), [db, kind]);
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(rows);
  const toast = useToast();
  const texts = lookupTexts(kind);
  const columns = useMemo(() => columnsOf(kind), [kind]);
  const view = useListView(rows, columns, nameOf, BY_NAME);
  const [adding, setAdding] = useState(false);
  // [B10] The item edited is named by the address, and shown as the list has it now.
  const { id: editingId, open: openItem } = useRecordLink(link);
  const editing = editingId && rows ? (rows.find((row) => row.id === editingId) ?? null) : undefined;

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
        { label: 'Edit', icon: <PencilIcon />, onClick: (row) => openItem(row.id), main: true },
        {
          label: 'Deactivate',
          icon: <PowerIcon />,
          onClick: (row) => setActive(row, false),
          destructive: true,
          hidden: (row) => row.isActive === false,
        },
        { label: 'Activate', icon: <PowerIcon />, onClick: (row) => setActive(row, true), hidden: (row) => row.isActive !== false },
      ]
    : [{ label: 'View Details', icon: <EyeIcon />, onClick: (row) => openItem(row.id), main: true }];

  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body p-4 md:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="card-title">{texts.cardTitle}</h2>
          {canWrite && <AddButton label={texts.addButton} small onClick={() => setAdding(true)} />}
        </div>
        <ListControls noun={texts.noun} one={texts.one} searchHint="name" view={view} columns={columns} />
        {editing === null && <MissingRecord what={texts.one} onBack={() => openItem(null)} />}
        <DataTable
          rows={view.shown}
          columns={columns}
          actions={actions}
          emptyText={texts.empty}
          label={texts.cardTitle}
          sort={view.sort}
          onSort={view.setSort}
        />
      </div>
      <LookupDialog kind={kind} open={adding} editing={null} onClose={() => setAdding(false)} />
      <LookupDialog kind={kind} open={editing != null} editing={editing ?? null} readOnly={!canWrite} onClose={() => openItem(null)} />
    </div>
  );
}
