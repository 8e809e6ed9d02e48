import { z } from 'zod';
import { isEntityId } from '../ids.ts';
import { OBJECT_PATH_PREFIX } from '../photo-reference.ts';
import { blankToNull, optionalText, requiredName } from './common.ts';
import { optionalEmail, optionalPhone } from './contact.ts';

export const RANCH_ADDRESS_MAX = 500;
export const RANCH_ADDRESS_MAX_LINES = 6;
export const RANCH_LOGO_MESSAGE = 'Logo must be a photo uploaded to this ranch';

/** [L9] A logo is a photo served by this server (`/api/objects/<uuid>`), never one still in an outbox. */
export function isServedPhoto(value: string): boolean {
  return value.startsWith(OBJECT_PATH_PREFIX) && isEntityId(value.slice(OBJECT_PATH_PREFIX.length));
}

const address = optionalText(RANCH_ADDRESS_MAX).refine(
  (value) => value === null || value.split('\n').length <= RANCH_ADDRESS_MAX_LINES,
  `Must be at most ${RANCH_ADDRESS_MAX_LINES} lines`,
);

const logoUrl = z.preprocess(
  blankToNull,
  z.string({ error: RANCH_LOGO_MESSAGE }).trim().max(80, RANCH_LOGO_MESSAGE).refine(isServedPhoto, RANCH_LOGO_MESSAGE).nullable(),
);

/**
 * [L9] The ranch's details that head its receipts: `PUT /api/ranch` and the Ranch details
 * form. Empty optional fields are stored as none (null); line ends are kept as '\n'.
 */
export const ranchDetailsInput = z.object({
  name: requiredName('Ranch name is required'),
  address: z.preprocess((value) => (typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : value), address).default(null),
  phone: optionalPhone.default(null),
  email: optionalEmail.default(null),
  logoUrl: logoUrl.default(null),
});

export type RanchDetailsInput = z.input<typeof ranchDetailsInput>;
export type RanchDetailsFields = z.output<typeof ranchDetailsInput>;
