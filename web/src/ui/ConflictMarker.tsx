import type { Collection } from '../../../shared/index.ts';
import { useRecordConflictRows } from '../features/conflicts/open-conflicts.ts';
import { fieldLabel } from '../features/history/history-text.ts';
import { WarningIcon } from './icons.tsx';

/** [T8] What a marker says to a screen reader: 'Conflict: Price' ('Conflict: Price, Breed' for two fields). */
export const conflictMarkText = (collection: Collection, fields: readonly string[]) =>
  `Conflict: ${[...new Set(fields.map((field) => fieldLabel(collection, field)))].join(', ')}`;

/**
 * [T8] A record's open conflicts marked where it is listed: a warning badge 'Conflict' (its
 * fields said to screen readers and in the tooltip), or nothing. Rendered by a list's name
 * cell, so a desk table's row and a phone's card both carry it; it follows the device's
 * conflicts as they arrive, are answered here, or close.
 */
export function ConflictMarker({ collection, id, className = '' }: { collection: Collection; id: string; className?: string }) {
  const conflicts = useRecordConflictRows(collection, id);
  if (conflicts.length === 0) return null;
  const text = conflictMarkText(
    collection,
    conflicts.map((conflict) => conflict.field),
  );
  return (
    // Spaced by its margin, not a space: the name's cell reads as the name alone when there is none.
    <span className={`badge badge-warning badge-sm ms-2 gap-1 whitespace-nowrap align-middle ${className}`} title={text}>
      <WarningIcon className="size-3.5" />
      <span aria-hidden="true">Conflict</span>
      <span className="sr-only">{text}</span>
    </span>
  );
}
