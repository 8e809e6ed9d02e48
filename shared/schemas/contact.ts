import { z } from 'zod';
import { blankToNull, requiredName } from './common.ts';

/**
 * [C9] Phone numbers as people write them, stored as typed (trimmed): a '+', '(' or a digit
 * first, then digits, spaces and ( ) - . / * #, with an extension ('x12', 'ext. 12', '#12').
 * '(555) 201-3344', '555-201-3344', '555.201.3344', '+1 555 201 3344' and
 * '+44 20 7946 0958' are phone numbers; letters or a second '+' are not. Every number the
 * earlier rule accepted is still accepted, so no stored contact becomes invalid.
 */
const PHONE = /^[+(\d][\d\s().\-/x#*]*(\s*ext\.?\s*\d+)?$/i;

export const optionalPhone = z.preprocess(
  blankToNull,
  z.string({ error: 'Invalid phone number' }).trim().max(40, 'Invalid phone number').regex(PHONE, 'Invalid phone number').nullable(),
);

/** [C7]: optional, valid when given ('Invalid email'); empty is stored as null. */
export const optionalEmail = z.preprocess(
  blankToNull,
  z.string({ error: 'Invalid email' }).trim().max(254, 'Invalid email').pipe(z.email('Invalid email')).nullable(),
);

/** Suppliers (owners) and buyers share one contact form ([C7]). */
export const contactInput = z.object({
  firstName: requiredName('First name is required'),
  lastName: requiredName('Last name is required'),
  phone: optionalPhone.default(null),
  email: optionalEmail.default(null),
});

export type ContactInput = z.input<typeof contactInput>;
export type ContactFields = z.output<typeof contactInput>;
export type Buyer = ContactFields & { id: string };
export type Owner = ContactFields & { id: string; createdAt: string };
