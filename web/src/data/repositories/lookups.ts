import type * as Y from 'yjs';
import { LOOKUP_KINDS, lookupInput, newId, type LookupKind } from '../../../../shared/index.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { requireEntity } from './references.ts';
import { validate } from './validate.ts';
import { writeStamped } from './device-time.ts';
import { setOneField } from './set-field.ts';

export type LookupRepository = ReturnType<typeof createLookupRepository>;

/** Breeds, colors, genders and statuses; written only through here (see horses.ts). */
export function createLookupRepository(doc: Y.Doc) {
  return {
    /** [L4]: lookup items are always created active. Returns the new id. */
    create(kind: LookupKind, input: { name: string }, id: string = newId()): string {
      if (!(LOOKUP_KINDS as readonly unknown[]).includes(kind)) throw new Error('No such list');
      const fields = validate(lookupInput, { name: input.name, isActive: true });
      doc.transact(() => writeStamped(doc, kind, id, fields), LOCAL_ORIGIN);
      return id;
    },

    /** Renames the item; only `name` is written, so a concurrent (de)activation survives. */
    rename(kind: LookupKind, id: string, input: { name: string }): void {
      const { name } = validate(lookupInput.pick({ name: true }), input);
      requireEntity(doc, kind, id, 'Item not found');
      doc.transact(() => writeStamped(doc, kind, id, { name }), LOCAL_ORIGIN);
    },

    /** [T6] Sets the name or isActive, written even when unchanged (answering a conflict: set-field.ts). */
    setField(kind: LookupKind, id: string, field: string, value: unknown): void {
      setOneField(doc, kind, lookupInput, id, field, value, 'Item not found');
    },

    /**
     * Lookup items are never deleted (horses keep referring to them); an inactive item is
     * no longer offered in the horse form but still names the horses that have it.
     */
    setActive(kind: LookupKind, id: string, isActive: boolean): void {
      requireEntity(doc, kind, id, 'Item not found');
      doc.transact(() => writeStamped(doc, kind, id, { isActive }), LOCAL_ORIGIN);
    },
  };
}
