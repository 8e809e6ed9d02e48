import { z } from 'zod';
import { CARE_KINDS } from '../care-kinds.ts';
import { MAX_NOTES_LENGTH } from '../constants.ts';
import { entityId, isoDate, optionalDate, optionalText, required, requiredRef } from './common.ts';

export { CARE_KIND_LABELS, CARE_KINDS, type CareKind } from '../care-kinds.ts';

/** How many horses one care visit may name at once (a whole barn, not the whole ranch by accident). */
export const MAX_HORSES_PER_VISIT = 500;

const kind = z.enum(CARE_KINDS, {
  error: (issue) =>
    issue.input === undefined || issue.input === null || issue.input === ''
      ? 'Care type is required'
      : `Care type must be one of ${CARE_KINDS.join(', ')}`,
});

const careDetails = {
  kind,
  doneOn: required('Date done is required', isoDate),
  nextDueOn: optionalDate.default(null),
  notes: optionalText(MAX_NOTES_LENGTH).default(null),
};

const NEXT_DUE_MESSAGE = 'Next due date cannot be before the date done';
const dueNotBeforeDone = (entry: { doneOn: string; nextDueOn: string | null }) =>
  entry.nextDueOn === null || entry.nextDueOn >= entry.doneOn;

/**
 * [K2] One visit for one or several horses (the farrier does ten in a morning): the care form,
 * POST /api/careEntries and the device's repository. Each horse gets its own entry.
 */
export const careVisitInput = z
  .object({
    horseIds: z
      .array(requiredRef('Horse is required'), { error: 'Choose at least one horse' })
      .min(1, 'Choose at least one horse')
      .max(MAX_HORSES_PER_VISIT, `At most ${MAX_HORSES_PER_VISIT} horses at once`)
      .refine((ids) => new Set(ids).size === ids.length, 'A horse is named twice'),
    ...careDetails,
  })
  .refine(dueNotBeforeDone, { message: NEXT_DUE_MESSAGE, path: ['nextDueOn'] });

/** [K3] A correction of one entry (PUT /api/careEntries/{id}): who recorded it and when stay. */
export const careEntryEdit = z
  .object({ horseId: requiredRef('Horse is required'), ...careDetails })
  .refine(dueNotBeforeDone, { message: NEXT_DUE_MESSAGE, path: ['nextDueOn'] });

/**
 * [K1] One care entry as the document stores it (`careEntries`): also the server's check of
 * synced entries. `recordedBy` is the id of the person who recorded it, `recordedByName`
 * their name as it was then (a Viewer's device cannot list users).
 */
export const careEntryRecord = z
  .object({
    horseId: requiredRef('Horse is required'),
    ...careDetails,
    recordedBy: entityId,
    recordedByName: optionalText(200).default(null),
    createdAt: z.iso.datetime({ offset: true, error: 'Must be a timestamp' }),
  })
  .refine(dueNotBeforeDone, { message: NEXT_DUE_MESSAGE, path: ['nextDueOn'] });

export type CareVisitInput = z.input<typeof careVisitInput>;
export type CareVisit = z.output<typeof careVisitInput>;
export type CareEntryEditInput = z.input<typeof careEntryEdit>;
export type CareEntryEdit = z.output<typeof careEntryEdit>;
export type CareEntryFields = z.output<typeof careEntryRecord>;
export type CareEntry = CareEntryFields & { id: string };
