import { useLiveQuery } from 'dexie-react-hooks';
import type { Collection } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { contactName } from '../contacts/contact-name.ts';
import type { HistoryEntry } from './history-text.ts';

/** The current names of the records the entries are about, from what the device holds. */
export function useRecordNames(entries: HistoryEntry[]): Map<string, string> {
  const { db } = useRanchData();
  const wanted = new Map<Collection, Set<string>>();
  for (const { collection, entityId } of entries) {
    if (collection === 'payments' || collection === 'sales' || collection === 'careEntries') continue;
    wanted.set(collection, (wanted.get(collection) ?? new Set()).add(entityId));
  }
  const key = entries.map((entry) => entry.key).join(';');
  return (
    useLiveQuery(async () => {
      const names = new Map<string, string>();
      for (const [collection, ids] of wanted) {
        const rows = await db.table<Record<string, unknown>, string>(collection).bulkGet([...ids]);
        for (const row of rows) {
          if (!row) continue;
          const name = typeof row.name === 'string' ? row.name : contactName(row);
          if (name) names.set(String(row.id), name);
        }
      }
      return names;
    }, [db, key]) ?? new Map()
  );
}
