import { LOOKUP_KINDS, type Conflict, type LookupKind } from '../../../../shared/index.ts';
import type { RanchWrites } from '../../data/ranch-writes.ts';

const isLookup = (collection: string): collection is LookupKind => (LOOKUP_KINDS as readonly string[]).includes(collection);

/**
 * [T6] Writes the chosen value of a conflict's field through the one write path (the record's
 * repository, here or in the data worker): written even when it is the value kept, which is
 * how keeping it is said. Offline too: the server closes the conflict when the write arrives.
 */
export async function answerConflict(writes: RanchWrites, conflict: Conflict, value: unknown): Promise<void> {
  const { collection, entityId, field } = conflict;
  if (collection === 'horses') return writes.horses.setField(entityId, field, value);
  if (collection === 'owners') return writes.owners.setField(entityId, field, value);
  if (collection === 'buyers') return writes.buyers.setField(entityId, field, value);
  if (isLookup(collection)) return writes.lookups.setField(collection, entityId, field, value);
  throw new Error(`A ${collection} field cannot be answered here`);
}

/** Whether this app can write the answer (sales and payments are never edited; care entries only added or removed). */
export const canAnswer = (conflict: Conflict): boolean =>
  ['horses', 'owners', 'buyers'].includes(conflict.collection) || isLookup(conflict.collection);
