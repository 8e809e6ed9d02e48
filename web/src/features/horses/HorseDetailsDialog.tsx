import { useState, type ReactNode } from 'react';
import { localDate } from '../../lib/format-date.ts';
import { DetailsList, DetailsNotes } from '../../ui/DetailsList.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { EditButton, type EditAction, type RecordLink } from '../../ui/record-link.tsx';
import { statusBadgeClass } from '../../ui/status-tone.ts';
import { ageText, priceText, supplierText } from './horse-display.ts';
import type { HorseRow } from './horse-names.ts';
import { HorseAvatar } from '../photos/HorseAvatar.tsx';
import { useCanWrite } from '../auth/use-can-write.ts';
import { CareTimeline } from '../care/CareTimeline.tsx';
import { CareVisitDialog } from '../care/CareVisitDialog.tsx';
import { RecordHistory } from '../history/RecordHistory.tsx';
import { RecordConflicts } from '../conflicts/RecordConflicts.tsx';

type Props = {
  horse: HorseRow | null;
  onClose: () => void;
  /** [K8] The care entry whose details are open over these (/horses/<id>/care/<entry>). */
  careLink?: RecordLink | undefined;
} & EditAction;

/** View Details (beyond the seed): every field of the horse, read-only, and its care timeline ([K3]). */
export function HorseDetailsDialog({ horse, onClose, onEdit, careLink }: Props) {
  const canWrite = useCanWrite();
  const [recording, setRecording] = useState(false);
  const rows: [string, ReactNode][] = horse
    ? [
        ['Breed', horse.breedName ?? ''],
        ['Color', horse.colorName ?? ''],
        ['Gender', horse.genderName ?? ''],
        [
          'Status',
          horse.statusName ? (
            <span key="status" className={statusBadgeClass(horse.statusName)}>
              {horse.statusName}
            </span>
          ) : (
            'None'
          ),
        ],
        ['Age', ageText(horse.ageYears, horse.birthdate)],
        ['Birth Date', localDate(horse.birthdate)],
        ['Price', priceText(horse.priceUsd)],
        ['Supplier', supplierText(horse)],
      ]
    : [];
  return (
    <Modal open={horse !== null} title="Horse Details" onClose={onClose}>
      {horse && (
        <div className="space-y-4">
          <div className="flex items-center gap-4">
            <HorseAvatar photoUrl={horse.photoUrl} name={horse.name} size="details" />
            <p className="flex-1 text-xl font-semibold">{horse.name}</p>
            <EditButton onEdit={onEdit} />
          </div>
          <RecordConflicts collection="horses" id={horse.id} />
          <DetailsList rows={rows} />
          <DetailsNotes notes={horse.notes} />
          <div>
            <div className="mb-2 flex items-center justify-between gap-2">
              <h3 className="font-semibold">Care</h3>
              {canWrite && (
                <button type="button" className="btn btn-sm btn-outline" onClick={() => setRecording(true)}>
                  Record Care
                </button>
              )}
            </div>
            <CareTimeline horseId={horse.id} horseName={horse.name} link={careLink} />
          </div>
          <RecordHistory collection="horses" id={horse.id} />
          <CareVisitDialog open={recording} horseIds={[horse.id]} onClose={() => setRecording(false)} />
        </div>
      )}
    </Modal>
  );
}
