import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { CARE_KIND_LABELS, type CareEntry } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ConflictMarker } from '../../ui/ConflictMarker.tsx';
import { TrashIcon } from '../../ui/icons.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { useCanWrite } from '../auth/use-can-write.ts';
import type { Column } from '../../ui/DataTable.tsx';
import { ListControls } from '../../ui/ListControls.tsx';
import { DATE_ORDER, dateSortValue, type ListSort } from '../../ui/list-sort.ts';
import { searchText, useListView } from '../../ui/use-list-view.ts';
import { useUndoableDelete } from '../../ui/undo-delete.ts';
import { restoreCareEntries } from './restore-care.ts';
import { dateText } from '../sales/sale-display.ts';

/** [B6] What the care timeline sorts by (it has no table: no cells) and searches. */
const CARE_COLUMNS: Column<CareEntry>[] = [
  { header: 'Date Done', key: 'doneOn', sortValue: (entry) => dateSortValue(entry.doneOn), sortNames: DATE_ORDER },
  { header: 'Care', key: 'kind', sortValue: (entry) => CARE_KIND_LABELS[entry.kind] },
  { header: 'Next Due', key: 'nextDueOn', sortValue: (entry) => dateSortValue(entry.nextDueOn), sortNames: DATE_ORDER },
];
const NEWEST_CARE: ListSort = { key: 'doneOn', direction: 'desc' };
const careText = (entry: CareEntry) => searchText(CARE_KIND_LABELS[entry.kind], entry.notes, entry.recordedByName);

const entryName = (entry: CareEntry) => `${CARE_KIND_LABELS[entry.kind]} of ${dateText(entry.doneOn)}`;

/**
 * [K3] A horse's care, most recent first: what was done, when, when it is next due, notes, and
 * who recorded it. Staff and Admins can delete an entry recorded by mistake.
 */
export function CareTimeline({ horseId }: { horseId: string }) {
  const { db, writes } = useRanchData();
  const canWrite = useCanWrite();
  const toast = useToast();
  const [deleting, setDeleting] = useState<CareEntry | null>(null);
  const entries = useLiveQuery(
    async () =>
      ((await db.horseCare.get(horseId))?.entries ?? []).sort(
        (a, b) => b.doneOn.localeCompare(a.doneOn) || b.createdAt.localeCompare(a.createdAt),
      ),
    [db, horseId],
  );

  const deleted = useUndoableDelete();
  // [B6] Searched and ordered as the lists are; newest first until another order is chosen.
  const view = useListView(entries, CARE_COLUMNS, careText, NEWEST_CARE);
  const shown = view.shown ?? [];
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

  if (!entries) return null;
  if (entries.length === 0) return <p className="text-base-content/60">No care recorded yet</p>;
  return (
    <>
      <ListControls
        noun="care entries"
        one="care entry"
        searchHint="care, notes or who recorded it"
        view={view}
        columns={CARE_COLUMNS}
        noHeaders
      />
      {shown.length === 0 && <p className="text-base-content/60">No care entries found</p>}
      {/* The dot beside each entry's first line, and lines only between entries (docs/design.md). */}
      <ul className="timeline timeline-vertical timeline-compact timeline-snap-icon" aria-label="Care timeline">
        {shown.map((entry, index) => (
          <li key={entry.id}>
            {index > 0 && <hr />}
            <div className="timeline-middle">
              <span className="status status-primary mx-1 mt-2 block" aria-hidden="true" />
            </div>
            <div className="timeline-end mb-3 flex w-full items-start justify-between gap-2">
              <div>
                <p className="font-semibold">
                  {CARE_KIND_LABELS[entry.kind]} <span className="font-normal text-base-content/70">— {dateText(entry.doneOn)}</span>
                  <ConflictMarker collection="careEntries" id={entry.id} />
                </p>
                {entry.nextDueOn && <p className="text-sm">Next due {dateText(entry.nextDueOn)}</p>}
                {entry.notes && <p className="whitespace-pre-wrap text-sm">{entry.notes}</p>}
                {entry.recordedByName && <p className="text-xs text-base-content/60">Recorded by {entry.recordedByName}</p>}
              </div>
              {canWrite && (
                <button
                  type="button"
                  className="btn btn-ghost btn-xs text-error"
                  aria-label={`Delete ${entryName(entry)}`}
                  onClick={() => setDeleting(entry)}
                >
                  <TrashIcon />
                </button>
              )}
            </div>
            {index < shown.length - 1 && <hr />}
          </li>
        ))}
      </ul>
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
