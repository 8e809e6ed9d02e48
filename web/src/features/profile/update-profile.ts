import type { ProfileFields } from './ProfileDetailsForm.tsx';
import { apiRequest } from '../../lib/api.ts';

export const PROFILE_PATH = '/api/auth/user';

/** [U8]: PUT /api/auth/user with firstName, lastName, email. */
export async function updateProfile(fields: ProfileFields): Promise<void> {
  await apiRequest('PUT', PROFILE_PATH, fields);
}
