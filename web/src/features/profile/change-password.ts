import { z } from 'zod';
import { passwordChangeInput } from '../../../../shared/index.ts';
import { apiRequest } from '../../lib/api.ts';

export const PASSWORD_PATH = '/api/auth/password';

/** [U13] The form: the shared rules, and the new password typed twice. */
export const changePasswordForm = passwordChangeInput
  .extend({ confirmPassword: z.string() })
  .refine((values) => values.confirmPassword === values.newPassword, { path: ['confirmPassword'], message: 'Passwords do not match' });

export type ChangePasswordFields = z.output<typeof changePasswordForm>;

/** [U13] PUT /api/auth/password: this session stays, the user's others end. */
export async function changePassword({ currentPassword, newPassword }: ChangePasswordFields): Promise<void> {
  await apiRequest('PUT', PASSWORD_PATH, { currentPassword, newPassword });
}
