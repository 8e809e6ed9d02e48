import type { RanchDetailsFields } from './schemas/ranch.ts';

/**
 * [L9] `GET /api/ranch`: every field null until given (the name: until the first run or an
 * Admin gives it). Apart from the schema so the app's start, which reads the kept details,
 * carries no zod.
 */
export type RanchDetails = { name: string | null } & Omit<RanchDetailsFields, 'name'>;

export const NO_RANCH_DETAILS: RanchDetails = { name: null, address: null, phone: null, email: null, logoUrl: null };
