import type * as Y from 'yjs';
import { lookupInput, newId, writeEntity, type LookupKind } from '../../../../shared/index.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { validate } from './validate.ts';

export type LookupRepository = ReturnType<typeof createLookupRepository>;

/** Breeds, colors, genders and statuses; written only through here (see horses.ts). */
export function createLookupRepository(doc: Y.Doc) {
  return {
    /** SPEC §9: lookup items are always created active. Returns the new id. */
    create(kind: LookupKind, input: { name: string }): string {
      const fields = validate(lookupInput, { name: input.name, isActive: true });
      const id = newId();
      doc.transact(() => writeEntity(doc, kind, id, fields), LOCAL_ORIGIN);
      return id;
    },
  };
}
