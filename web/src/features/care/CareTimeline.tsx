import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { CARE_KIND_LABELS, type CareEntry } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ConflictMarker } from '../../ui/ConflictMarker.tsx';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { EyeIcon, PencilIcon, TrashIcon } from '../../ui/icons.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { useCanWrite } from '../auth/use-can-write.ts';
import { ListControls } from '../../ui/ListControls.tsx';
import { DATE_ORDER, dateSortValue, type ListSort } from '../../ui/list-sort.ts';
import { MissingRecord, useRecordLink, type RecordLink } from '../../ui/record-link.tsx';
import { searchText, useListView } from '../../ui/use-list-view.ts';
import { useUndoableDelete } from '../../ui/undo-delete.ts';
import { restoreCareEntries } from './restore-care.ts';
import { dateText } from '../sales/sale-display.ts';
import { CareEntryDetailsDialog } from './CareEntryDetailsDialog.tsx';
import { CareEntryDialog } from './CareEntryDialog.tsx';

const kindText = (entry: CareEntry) => CARE_KIND_LABELS[entry.kind];

/** The care, with its conflict marker ([T8]). */
const careName = (entry: CareEntry) => (
  <>
    <span className="font-medium">{kindText(entry)}</span>
    <ConflictMarker collection="careEntries" id={entry.id} />
  </>
);

/**
 * [B6] [B16] The care list's columns: a table at a desk (its notes under the care), sorted by
 * its headers; on a phone a compact row, the care and its date on line one, when it is next
 * due and the notes on line two.
 */
const CARE_COLUMNS: Column<CareEntry>[] = [
  {
    header: 'Care',
    key: 'kind',
    cell: (entry) => (
      <>
        {careName(entry)}
        {entry.notes && <span className="block max-w-48 truncate text-sm text-base-content/70">{entry.notes}</span>}
      </>
    ),
    phoneCell: careName,
    sortValue: kindText,
  },
  {
    header: 'Date Done',
    key: 'doneOn',
    cell: (entry) => dateText(entry.doneOn),
    sortValue: (entry) => dateSortValue(entry.doneOn),
    sortNames: DATE_ORDER,
    phone: 'status',
    phoneCell: (entry) => <span className="text-sm text-base-content/70">{dateText(entry.doneOn)}</span>,
  },
  {
    header: 'Next Due',
    key: 'nextDueOn',
    cell: (entry) => (entry.nextDueOn ? dateText(entry.nextDueOn) : ''),
    phoneCell: (entry) => (entry.nextDueOn ? `Next due ${dateText(entry.nextDueOn)}` : ''),
    sortValue: (entry) => dateSortValue(entry.nextDueOn),
    sortNames: DATE_ORDER,
  },
  { header: 'Notes', key: 'notes', desk: false, phoneCell: (entry) => entry.notes ?? '' },
];
const NEWEST_CARE: ListSort = { key: 'doneOn', direction: 'desc' };
const careText = (entry: CareEntry) => searchText(CARE_KIND_LABELS[entry.kind], entry.notes, entry.recordedByName);

const entryName = (entry: CareEntry) => `${CARE_KIND_LABELS[entry.kind]} of ${dateText(entry.doneOn)}`;

type Props = {
  horseId: string;
  horseName?: string;
  /** [K8] The entry whose details are open, named by the address (/horses/<horse>/care/<id>). */
  link?: RecordLink | undefined;
};

/**
 * [K3] A horse's care, most recent first: what was done, when, when it is next due, notes, and
 * who recorded it. A row opens the entry's details ([K8]), with Edit; Staff and Admins can
 * also edit or delete an entry from its row.
 */
export function CareTimeline({ horseId, horseName = '', link }: Props) {
  const { db, writes } = useRanchData();
  const canWrite = useCanWrite();
  const toast = useToast();
  const [deleting, setDeleting] = useState<CareEntry | null>(null);
  const [editing, setEditing] = useState<CareEntry | null>(null);
  const entries = useLiveQuery(
    async () =>
      ((await db.horseCare.get(horseId))?.entries ?? []).sort(
        (a, b) => b.doneOn.localeCompare(a.doneOn) || b.createdAt.localeCompare(a.createdAt),
      ),
    [db, horseId],
  );
  // [K8] The entry viewed is read from the list as it is now: an edit here or elsewhere shows in it.
  const { id: viewingId, open: showDetails } = useRecordLink(link);
  const viewing = viewingId && entries ? (entries.find((entry) => entry.id === viewingId) ?? null) : undefined;

  const deleted = useUndoableDelete();
  // [B6] Searched and ordered as the lists are; newest first until another order is chosen.
  const view = useListView(entries, CARE_COLUMNS, careText, NEWEST_CARE);
  const remove = async (entry: CareEntry) => {
    setDeleting(null);
    try {
      await writes.careEntries.remove(entry.id);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to delete care entry', variant: 'destructive' });
      return;
    }
    deleted('Care entry', () => restoreCareEntries(writes, [entry]), 'Care entry deleted');
  };

  const viewAction: RowAction<CareEntry> = { label: 'View Details', icon: <EyeIcon />, onClick: (row) => showDetails(row.id), main: true };
  const actions: RowAction<CareEntry>[] = canWrite
    ? [
        viewAction,
        { label: 'Edit', icon: <PencilIcon />, onClick: setEditing },
        { label: 'Delete', icon: <TrashIcon />, onClick: setDeleting, destructive: true },
      ]
    : [viewAction];

  if (!entries) return null;
  return (
    <>
      {viewing === null && <MissingRecord what="care entry" onBack={() => showDetails(null)} />}
      {entries.length === 0 ? (
        <p className="text-base-content/60">No care recorded yet</p>
      ) : (
        <div className="space-y-2">
          <ListControls
            noun="care entries"
            one="care entry"
            searchHint="care, notes or who recorded it"
            view={view}
            columns={CARE_COLUMNS}
          />
          <DataTable
            rows={view.shown}
            columns={CARE_COLUMNS}
            actions={actions}
            emptyText="No care entries found"
            label="Care timeline"
            sort={view.sort}
            onSort={view.setSort}
          />
        </div>
      )}
      <CareEntryDetailsDialog
        entry={viewing ?? null}
        horseName={horseName}
        onClose={() => showDetails(null)}
        onEdit={canWrite ? () => viewing && setEditing(viewing) : undefined}
      />
      <CareEntryDialog entry={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this care entry?"
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        {deleting && <p>{entryName(deleting)} will be removed on every device.</p>}
      </ConfirmDialog>
    </>
  );
}
