import { z } from 'zod';
import type { Collection } from '../doc-layout.ts';
import { careEntryRecord } from './care.ts';
import { correctionRecord } from './correction.ts';
import { contactInput } from './contact.ts';
import { horseInput } from './horse.ts';
import { lookupInput } from './lookup.ts';
import { paymentInput } from './payment.ts';
import { saleRecordFields } from './sale.ts';

/** A moment as devices stamp it: `new Date().toISOString()`. */
export const isoTimestamp = z.iso.datetime({ offset: true, error: 'Must be a timestamp' });

/**
 * [T5] The field in which a device stamps each change it makes to a record with its own clock
 * (`new Date().toISOString()`). Any record may hold it; only a timestamp (40 characters at
 * most) is kept, anything else is removed like an unknown field. It is the device's claim,
 * shown beside the server's time in the history, never trusted; records read without it.
 */
export const DEVICE_TIME_FIELD = 'updatedAt';

export function isDeviceTime(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 40 && isoTimestamp.safeParse(value).success;
}

/**
 * Each entity as stored in the document (the form schemas plus what a repository adds).
 * The server checks every synced entity against these before projecting it.
 */
export const RECORD_SCHEMAS = {
  horses: horseInput,
  owners: contactInput.extend({ createdAt: isoTimestamp }),
  buyers: contactInput,
  sales: saleRecordFields.and(z.object({ createdAt: isoTimestamp })),
  payments: paymentInput.extend({ createdAt: isoTimestamp }),
  breeds: lookupInput,
  colors: lookupInput,
  genders: lookupInput,
  statuses: lookupInput,
  careEntries: careEntryRecord,
  corrections: correctionRecord,
} satisfies Record<Collection, z.ZodType>;

const LOOKUP_FIELDS = ['name', 'isActive'] as const;
const CONTACT_FIELDS = ['firstName', 'lastName', 'phone', 'email'] as const;

/**
 * The fields each record may hold besides `id` ([Y3]): a synced entity with any other
 * field is not valid, so nothing unknown grows the document (docs/sync-rules.md).
 */
export const RECORD_FIELDS: Record<Collection, readonly string[]> = {
  horses: ['name', 'breedId', 'colorId', 'genderId', 'statusId', 'ownerId', 'birthdate', 'ageYears', 'priceUsd', 'photoUrl', 'notes'],
  owners: [...CONTACT_FIELDS, 'createdAt'],
  buyers: CONTACT_FIELDS,
  sales: [
    'horseId',
    'buyerId',
    'salePrice',
    'downPayment',
    'termsMonths',
    'interestApr',
    'scheduleStartDate',
    'previousStatusId',
    'createdAt',
  ],
  payments: ['saleId', 'installmentId', 'amount', 'date', 'method', 'memo', 'createdAt'],
  breeds: LOOKUP_FIELDS,
  colors: LOOKUP_FIELDS,
  genders: LOOKUP_FIELDS,
  statuses: LOOKUP_FIELDS,
  careEntries: ['horseId', 'kind', 'doneOn', 'nextDueOn', 'notes', 'recordedBy', 'recordedByName', 'createdAt'],
  corrections: ['kind', 'saleId', 'paymentId', 'amount', 'date', 'method', 'reason', 'createdAt'],
};

export type RecordOf<C extends Collection> = z.output<(typeof RECORD_SCHEMAS)[C]>;
