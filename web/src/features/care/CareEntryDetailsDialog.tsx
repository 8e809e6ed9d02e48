import type { ReactNode } from 'react';
import { CARE_KIND_LABELS, type CareEntry } from '../../../../shared/index.ts';
import { DetailsList, DetailsNotes } from '../../ui/DetailsList.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { EditButton, type EditAction } from '../../ui/record-link.tsx';
import { RecordConflicts } from '../conflicts/RecordConflicts.tsx';
import { RecordHistory } from '../history/RecordHistory.tsx';
import { dateText } from '../sales/sale-display.ts';

type Props = { entry: CareEntry | null; horseName: string; onClose: () => void } & EditAction;

/** [K8] One care entry's details, by its link (/horses/<horse>/care/<id>): every field, Edit, its conflicts and history. */
export function CareEntryDetailsDialog({ entry, horseName, onClose, onEdit }: Props) {
  const rows: [string, ReactNode][] = entry
    ? [
        ['Horse', horseName],
        ['Date Done', dateText(entry.doneOn)],
        ['Next Due', entry.nextDueOn ? dateText(entry.nextDueOn) : 'None'],
        ['Recorded by', entry.recordedByName ?? ''],
        ['Recorded on', dateText(entry.createdAt)],
      ]
    : [];
  return (
    <Modal open={entry !== null} title="Care Details" onClose={onClose}>
      {entry && (
        <div className="space-y-4">
          <div className="flex items-center gap-4">
            <p className="flex-1 text-xl font-semibold">{CARE_KIND_LABELS[entry.kind]}</p>
            <EditButton onEdit={onEdit} />
          </div>
          <RecordConflicts collection="careEntries" id={entry.id} />
          <DetailsList rows={rows} />
          <DetailsNotes notes={entry.notes} />
          <RecordHistory collection="careEntries" id={entry.id} />
        </div>
      )}
    </Modal>
  );
}
