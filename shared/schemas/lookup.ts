import { z } from 'zod';
import { LOOKUP_KINDS, type LookupKind } from '../collections.ts';
import { requiredName } from './common.ts';

/** Singular names used in the texts of [L3] and [L5] ('Add New Breed', 'Breed created successfully'). */
export const LOOKUP_SINGULAR: Record<LookupKind, string> = {
  breeds: 'Breed',
  colors: 'Color',
  genders: 'Gender',
  statuses: 'Status',
};

export const lookupInput = z.object({
  name: requiredName('Name is required'),
  // [L4]: lookup creation always sets isActive true.
  isActive: z.boolean({ error: 'isActive must be true or false' }).default(true),
});

export type LookupInput = z.input<typeof lookupInput>;
export type LookupFields = z.output<typeof lookupInput>;
export type LookupItem = LookupFields & { id: string };
