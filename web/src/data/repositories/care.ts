import type * as Y from 'yjs';
import {
  careEntryEdit,
  careVisitInput,
  collectionMap,
  deleteEntity,
  newId,
  writeEntity,
  type CareEntryEditInput,
  type CareVisitInput,
} from '../../../../shared/index.ts';
import { writeStamped } from './device-time.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { NotFoundError, requireEntity } from './references.ts';
import { validate } from './validate.ts';

export type CareRepository = ReturnType<typeof createCareRepository>;

/** Who records a care entry ([K1]): the signed-in person, as the page knows them. */
export type Recorder = { userId: string; name: string | null };

/**
 * Care entries ([K1], [K2]): one visit for several horses is one transaction with an entry
 * per horse, so the farrier's morning is saved (and synced) whole or not at all.
 */
export function createCareRepository(doc: Y.Doc) {
  return {
    /** Returns the ids of the new entries, in the order of `horseIds`. Every horse must exist. */
    create(input: CareVisitInput, by: Recorder, ids: readonly string[] = []): string[] {
      const { horseIds, ...details } = validate(careVisitInput, input);
      for (const horseId of horseIds) requireEntity(doc, 'horses', horseId, 'Horse not found');
      const createdAt = new Date().toISOString();
      const made = horseIds.map((_, index) => ids[index] ?? newId());
      doc.transact(() => {
        horseIds.forEach((horseId, index) => {
          writeEntity(doc, 'careEntries', made[index]!, {
            horseId,
            ...details,
            recordedBy: by.userId,
            recordedByName: by.name?.trim() || null,
            createdAt,
          });
        });
      }, LOCAL_ORIGIN);
      return made;
    },

    /**
     * [K8] Corrects one entry: its kind, dates and notes (and its horse, which must exist);
     * who recorded it and when stay as they were.
     */
    update(id: string, input: CareEntryEditInput): void {
      const fields = validate(careEntryEdit, input);
      if (!collectionMap(doc, 'careEntries').has(id)) throw new NotFoundError('Care entry not found');
      requireEntity(doc, 'horses', fields.horseId, 'Horse not found');
      doc.transact(() => writeStamped(doc, 'careEntries', id, fields), LOCAL_ORIGIN);
    },

    /** A care entry recorded by mistake is deleted. */
    remove(id: string): void {
      if (!collectionMap(doc, 'careEntries').has(id)) throw new NotFoundError('Care entry not found');
      doc.transact(() => deleteEntity(doc, 'careEntries', id), LOCAL_ORIGIN);
    },
  };
}
