import { Link, type LinkProps } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { useRanchData } from '../../data/context.tsx';
import type { ConflictRow } from '../../data/db.ts';
import { fieldLabel } from '../history/history-text.ts';
import { conflictRecordKey, loadConflictRecords } from './conflict-records.ts';
import { conflictPeople } from './conflict-text.ts';

/**
 * [T8] The bell's open conflicts, oldest first: the record and the field ('Dusty — Price'),
 * who changed it, and a link to the record, where it is answered. An answer (here, on another
 * device or in another tab) takes it off the list.
 */
export function BellConflicts({ conflicts, onOpen }: { conflicts: readonly ConflictRow[]; onOpen: () => void }) {
  const { db } = useRanchData();
  const key = conflicts.map(conflictRecordKey).join(';');
  // Read again when the records listed change (and when their names do: a live query).
  const records = useLiveQuery(() => loadConflictRecords(db, conflicts), [db, key]);
  if (!records) return null;
  return (
    <section aria-label="Conflicts">
      <h2 className="mb-1 font-semibold">Conflicts</h2>
      <ul className="space-y-1">
        {conflicts.map((conflict) => {
          const record = records.get(conflictRecordKey(conflict));
          if (!record) return null;
          return (
            <li key={conflict.id}>
              <Link
                to={record.href as LinkProps['to']}
                className="block rounded-box border-l-4 border-warning px-2 py-1 hover:bg-base-200"
                onClick={onOpen}
              >
                <span className="block font-medium">
                  {record.name} — {fieldLabel(conflict.collection, conflict.field)}
                </span>
                <span className="block text-xs text-base-content/70">{conflictPeople(conflict)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
