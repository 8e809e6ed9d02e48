import type * as Y from 'yjs';
import { collectionMap, deleteWithDependents, horseInput, newId, type HorseInput } from '../../../../shared/index.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { refuseIfReferenced } from './references.ts';
import { validate } from './validate.ts';
import { writeStamped } from './device-time.ts';
import { setOneField } from './set-field.ts';

export type HorseRepository = ReturnType<typeof createHorseRepository>;

/**
 * The only way the app changes horses: validate with the shared schema, then one Y.Doc
 * transaction. Storage (y-indexeddb), the Dexie projection and the sync provider all
 * follow from that transaction, so a write is the same offline and online.
 */
export function createHorseRepository(doc: Y.Doc) {
  return {
    /** Returns the id of the new horse. */
    create(input: HorseInput, id: string = newId()): string {
      const fields = validate(horseInput, input);
      doc.transact(() => writeStamped(doc, 'horses', id, fields), LOCAL_ORIGIN);
      return id;
    },

    /** Replaces the horse's fields (as PUT /api/horses/{id}); only changed fields are written. */
    update(id: string, input: HorseInput): void {
      const fields = validate(horseInput, input);
      // Writing to a horse another device deleted would bring back a partial record.
      if (!collectionMap(doc, 'horses').has(id)) throw new Error('Horse not found');
      doc.transact(() => writeStamped(doc, 'horses', id, fields), LOCAL_ORIGIN);
    },

    /** [T6] Sets one field, written even when unchanged (answering a conflict: set-field.ts). */
    setField(id: string, field: string, value: unknown): void {
      setOneField(doc, 'horses', horseInput, id, field, value, 'Horse not found');
    },

    /** Whether any horse shows this photo (an `outbox:` reference or a server path). */
    photoInUse(photoUrl: string): boolean {
      for (const horse of collectionMap(doc, 'horses').values()) {
        if (horse.get('photoUrl') === photoUrl) return true;
      }
      return false;
    },

    /**
     * Points every horse showing `from` at `to`, in one transaction: the photo upload's last
     * step (an outbox reference becomes the server's object path). Returns how many changed.
     */
    replacePhoto(from: string, to: string): number {
      let changed = 0;
      doc.transact(() => {
        for (const horse of collectionMap(doc, 'horses').values()) {
          if (horse.get('photoUrl') !== from) continue;
          horse.set('photoUrl', to);
          changed += 1;
        }
      }, LOCAL_ORIGIN);
      return changed;
    },

    /**
     * Refuses while a sale names the horse (the sale must keep its horse); its care entries
     * go with it in the same transaction ([K6]). Returns false when the horse was already gone.
     */
    remove(id: string): boolean {
      refuseIfReferenced(doc, 'horses', id);
      let removed = false;
      doc.transact(() => {
        removed = deleteWithDependents(doc, 'horses', id);
      }, LOCAL_ORIGIN);
      return removed;
    },
  };
}
