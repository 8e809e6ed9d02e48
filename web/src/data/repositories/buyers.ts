import type * as Y from 'yjs';
import { contactInput, deleteEntity, newId, type ContactInput } from '../../../../shared/index.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { refuseIfReferenced, requireEntity } from './references.ts';
import { validate } from './validate.ts';
import { writeStamped } from './device-time.ts';
import { setOneField } from './set-field.ts';

export type BuyerRepository = ReturnType<typeof createBuyerRepository>;

/** Buyers; written only through here (see horses.ts). [C8] gives buyers no createdAt. */
export function createBuyerRepository(doc: Y.Doc) {
  return {
    create(input: ContactInput, id: string = newId()): string {
      const fields = validate(contactInput, input);
      doc.transact(() => writeStamped(doc, 'buyers', id, fields), LOCAL_ORIGIN);
      return id;
    },

    update(id: string, input: ContactInput): void {
      const fields = validate(contactInput, input);
      requireEntity(doc, 'buyers', id, 'Buyer not found');
      doc.transact(() => writeStamped(doc, 'buyers', id, fields), LOCAL_ORIGIN);
    },

    /** [T6] Sets one contact field, written even when unchanged (answering a conflict: set-field.ts). */
    setField(id: string, field: string, value: unknown): void {
      setOneField(doc, 'buyers', contactInput, id, field, value, 'Buyer not found');
    },

    /** Refuses while sales name this buyer: a sale must keep its buyer. */
    remove(id: string): boolean {
      refuseIfReferenced(doc, 'buyers', id);
      let removed = false;
      doc.transact(() => {
        removed = deleteEntity(doc, 'buyers', id);
      }, LOCAL_ORIGIN);
      return removed;
    },
  };
}
