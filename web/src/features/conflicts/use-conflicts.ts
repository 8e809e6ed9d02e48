import { useLiveQuery } from 'dexie-react-hooks';
import type { Collection } from '../../../../shared/index.ts';
import type { ConflictRow } from '../../data/db.ts';
import { useRanchData } from '../../data/context.tsx';

/**
 * [T6] A record's open conflicts as the device last fetched them (data/conflict-cache.ts),
 * oldest first, without those answered on this device; readable offline. Undefined until read.
 */
export function useOpenConflicts(collection: Collection, id: string): ConflictRow[] | undefined {
  const { db } = useRanchData();
  return useLiveQuery(
    async () =>
      (await db.conflicts.where('[collection+entityId]').equals([collection, id]).toArray())
        .filter((row) => !row.answeredAt)
        .sort((a, b) => a.detectedAt.localeCompare(b.detectedAt) || a.id.length - b.id.length || a.id.localeCompare(b.id)),
    [db, collection, id],
  );
}
