import { z } from 'zod';
import { ROLES } from '../constants.ts';
import { requiredName } from './common.ts';

export const role = z.enum(ROLES, { error: 'Role must be Admin, Staff or Viewer' });

const email = z
  .string({ error: 'Please enter a valid email address' })
  .trim()
  .max(254, 'Please enter a valid email address')
  .pipe(z.email('Please enter a valid email address'))
  .transform((value) => value.toLowerCase());

export const loginInput = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    .max(254)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
    .refine((value) => !/[\u0000-\u001f]/.test(value), 'Email is invalid')
    .transform((v) => v.toLowerCase()),
  password: z.string().min(1, 'Password is required').max(1024),
});

export const MIN_PASSWORD_LENGTH = 8;

/** A new password: for new accounts, resets and changes alike. */
const newPassword = z
  .string({ error: 'Password is required' })
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1024, 'Password must be at most 1024 characters');

/** The password someone already has, to confirm it is them (not checked for length: only compared). */
const currentPassword = z
  .string({ error: 'Current password is required' })
  .min(1, 'Current password is required')
  .max(1024, 'Current password is incorrect');

/**
 * [U16] The acting Admin's own password, confirming an account change when their session
 * did not sign in within the last few minutes (absent otherwise; only compared).
 */
const confirmingPassword = z.string().max(1024, 'Current password is incorrect').optional();

export const createUserInput = z.object({
  email,
  firstName: requiredName('First name is required'),
  lastName: requiredName('Last name is required'),
  role,
  password: newPassword,
  currentPassword: confirmingPassword,
});

/** [U17] An Admin invites a person: the account is made without a password, which they set by the link. */
export const inviteUserInput = z.object({
  email,
  firstName: requiredName('First name is required'),
  lastName: requiredName('Last name is required'),
  role,
  currentPassword: confirmingPassword,
});

/** [U18] An Admin makes a password-reset link for another account. */
export const resetLinkInput = z.object({ currentPassword: confirmingPassword });

/** [U17] [U18] Whether the link was e-mailed to the person (the server has SMTP settings). */
export type MailOutcome = { sent: true; to: string } | { sent: false; to: string; error: string };

/**
 * [U17] [U18] What an invitation or reset link answers: the address to open, until when, and
 * (only when the server has SMTP settings) whether it was e-mailed.
 */
export type AccountLink = { url: string; expiresAt: string; user: User; mail?: MailOutcome };

/** A new password typed twice (the first-run page, an account link). */
const confirmedPassword = {
  password: newPassword,
  confirm: z.string({ error: 'Type the password again' }).max(1024, 'The two passwords differ'),
};
const samePasswords = (value: { password: string; confirm: string }) => value.password === value.confirm;
const DIFFERENT = { message: 'The two passwords differ', path: ['confirm'] };

/** [A14] The first-run form: the ranch's name and its owner's account. */
export const setupInput = z
  .object({
    ranchName: requiredName('Ranch name is required'),
    firstName: requiredName('First name is required'),
    lastName: requiredName('Last name is required'),
    email,
    ...confirmedPassword,
  })
  .refine(samePasswords, DIFFERENT);

/** [U17] [U18] The password a person sets by their link. */
export const linkPasswordInput = z.object(confirmedPassword).refine(samePasswords, DIFFERENT);

/** [U4] An Admin changes another account's role. */
export const roleChangeInput = z.object({ role, currentPassword: confirmingPassword });

/** [U8] Names and e-mail; the current password only when the e-mail changes ([U15]). */
export const profileInput = z.object({
  firstName: requiredName('First name is required'),
  lastName: requiredName('Last name is required'),
  email,
  currentPassword: z.string().max(1024, 'Current password is incorrect').optional(),
});

/** [U11] An Admin deactivates or reactivates an account. */
export const userActiveInput = z.object({
  isActive: z.boolean({ error: 'isActive must be true or false' }),
  currentPassword: confirmingPassword,
});

/** [U12] An Admin sets a new password for an account. */
export const passwordResetInput = z.object({ password: newPassword, currentPassword: confirmingPassword });

/** [U13] Changing one's own password. */
export const passwordChangeInput = z.object({ currentPassword, newPassword });

/** [U6] user as the API returns it. */
export type User = {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  role: z.infer<typeof role>;
  profileImageUrl: string | null;
  /** [U11] False once an Admin deactivated the account: it cannot sign in. */
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
};
