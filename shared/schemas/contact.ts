import { z } from 'zod';
import { blankToNull, requiredName } from './common.ts';

/** Phone numbers as people write them: digits, spaces, + ( ) - . and an extension. */
const phone = z.preprocess(
  blankToNull,
  z
    .string({ error: 'Invalid phone number' })
    .trim()
    .max(40, 'Invalid phone number')
    .regex(/^[+\d][\d\s().\-/x#*]*$/i, 'Invalid phone number')
    .nullable(),
);

/** [C7]: optional, valid when given ('Invalid email'); empty is stored as null. */
const optionalEmail = z.preprocess(
  blankToNull,
  z.string({ error: 'Invalid email' }).trim().max(254, 'Invalid email').pipe(z.email('Invalid email')).nullable(),
);

/** Suppliers (owners) and buyers share one contact form ([C7]). */
export const contactInput = z.object({
  firstName: requiredName('First name is required'),
  lastName: requiredName('Last name is required'),
  phone: phone.default(null),
  email: optionalEmail.default(null),
});

export type ContactInput = z.input<typeof contactInput>;
export type ContactFields = z.output<typeof contactInput>;
export type Buyer = ContactFields & { id: string };
export type Owner = ContactFields & { id: string; createdAt: string };
