import { useLiveQuery } from 'dexie-react-hooks';
import type { Collection } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { contactName } from '../contacts/contact-name.ts';
import type { HistoryEntry } from './history-text.ts';

/** The records of entries this device holds, by id: each one's current name, or '' for a record without one (a sale, a payment). */
export type RecordsHere = Map<string, string>;

const NO_RECORDS: RecordsHere = new Map();

/**
 * The records the entries are about that this device holds, with their current names (a
 * live query: a record renamed, deleted or synced here is seen at once). Care entries, kept
 * inside their horse's row, are not looked for.
 */
export function useRecordsHere(entries: HistoryEntry[]): RecordsHere {
  const { db } = useRanchData();
  const wanted = new Map<Collection, Set<string>>();
  for (const { collection, entityId } of entries) {
    if (collection === 'careEntries') continue;
    wanted.set(collection, (wanted.get(collection) ?? new Set()).add(entityId));
  }
  const key = entries.map((entry) => entry.key).join(';');
  return (
    useLiveQuery(async () => {
      const records: RecordsHere = new Map();
      for (const [collection, ids] of wanted) {
        const rows = await db.table<Record<string, unknown>, string>(collection).bulkGet([...ids]);
        for (const row of rows) {
          if (!row) continue;
          const named = collection !== 'payments' && collection !== 'sales';
          records.set(String(row.id), (named && (typeof row.name === 'string' ? row.name : contactName(row))) || '');
        }
      }
      return records;
    }, [db, key]) ?? NO_RECORDS
  );
}

/** The current names of the records the entries are about, from what the device holds. */
export function useRecordNames(entries: HistoryEntry[]): Map<string, string> {
  const records = useRecordsHere(entries);
  return new Map([...records].filter(([, name]) => name));
}
