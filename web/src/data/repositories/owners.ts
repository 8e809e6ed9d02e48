import type * as Y from 'yjs';
import { contactInput, deleteEntity, newId, type ContactInput } from '../../../../shared/index.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { refuseIfReferenced, requireEntity } from './references.ts';
import { validate } from './validate.ts';
import { writeStamped } from './device-time.ts';
import { setOneField } from './set-field.ts';

export type OwnerRepository = ReturnType<typeof createOwnerRepository>;

/** Suppliers (the document's `owners`); written only through here (see horses.ts). */
export function createOwnerRepository(doc: Y.Doc) {
  return {
    /** Returns the id of the new supplier; `createdAt` is the moment it was made here. */
    create(input: ContactInput, id: string = newId()): string {
      const fields = validate(contactInput, input);
      doc.transact(() => writeStamped(doc, 'owners', id, { ...fields, createdAt: new Date().toISOString() }), LOCAL_ORIGIN);
      return id;
    },

    /** Replaces the contact fields; `createdAt` stays as it was. */
    update(id: string, input: ContactInput): void {
      const fields = validate(contactInput, input);
      requireEntity(doc, 'owners', id, 'Supplier not found');
      doc.transact(() => writeStamped(doc, 'owners', id, fields), LOCAL_ORIGIN);
    },

    /** [T6] Sets one contact field, written even when unchanged (answering a conflict: set-field.ts). */
    setField(id: string, field: string, value: unknown): void {
      setOneField(doc, 'owners', contactInput, id, field, value, 'Supplier not found');
    },

    /**
     * Refuses while horses name this supplier: deleting would silently turn them into
     * ranch horses (ownerId null means the ranch). Returns false when it was already gone.
     */
    remove(id: string): boolean {
      refuseIfReferenced(doc, 'owners', id);
      let removed = false;
      doc.transact(() => {
        removed = deleteEntity(doc, 'owners', id);
      }, LOCAL_ORIGIN);
      return removed;
    },
  };
}
