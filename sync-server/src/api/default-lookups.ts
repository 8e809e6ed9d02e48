import type * as Y from 'yjs';
import { collectionMap, LOOKUP_KINDS, newId, SOLD_STATUS_NAME, writeEntity, type LookupKind } from '../../../shared/index.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { writeThroughDoc } from './doc-writes.ts';

/**
 * [L8] The lists a new ranch starts with: common choices, each an ordinary item the owner
 * renames, deactivates or deletes in Administration like any other.
 */
export const DEFAULT_LOOKUPS: Record<LookupKind, readonly string[]> = {
  breeds: ['Quarter Horse', 'Thoroughbred', 'Arabian', 'Paint', 'Appaloosa', 'Morgan', 'Tennessee Walking Horse', 'Warmblood'],
  colors: ['Bay', 'Black', 'Chestnut', 'Sorrel', 'Gray', 'Palomino', 'Buckskin', 'Dun', 'Roan', 'Pinto'],
  genders: ['Mare', 'Stallion', 'Gelding', 'Filly', 'Colt'],
  // The same 'Sold' a sale marks its horse with ([S18]), so a sale finds it and makes no other.
  statuses: ['Available', 'In Training', 'Reserved', SOLD_STATUS_NAME, 'Retired'],
};

/**
 * Writes the default items of every list that has none, inside the caller's transaction;
 * a list with any item (active or not) is left as it is. Returns the lists it filled.
 */
export function writeDefaultLookups(doc: Y.Doc): LookupKind[] {
  const filled: LookupKind[] = [];
  for (const kind of LOOKUP_KINDS) {
    if (collectionMap(doc, kind).size > 0) continue;
    for (const name of DEFAULT_LOOKUPS[kind]) {
      const id = newId();
      writeEntity(doc, kind, id, { id, name, isActive: true });
    }
    filled.push(kind);
  }
  return filled;
}

/**
 * [L8] Fills the empty lists through the devices' path: one document transaction, committed
 * before this returns and then sent to every device by sync.
 */
export async function seedDefaultLookups(registry: DocumentRegistry, userId: string): Promise<LookupKind[]> {
  let filled: LookupKind[] = [];
  await writeThroughDoc(registry, userId, (doc) => {
    filled = writeDefaultLookups(doc);
  });
  return filled;
}
