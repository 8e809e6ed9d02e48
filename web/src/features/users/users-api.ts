import type { Role, User } from '../../../../shared/index.ts';
import { apiRequest, getJson } from '../../lib/api.ts';

export const USERS_PATH = '/api/users';

/** [X1], [R4] GET /api/users (Admin only). */
export async function fetchUsers(): Promise<User[]> {
  return (await getJson<User[]>(USERS_PATH)) ?? [];
}

/** [U4] PUT /api/users/{userId}/role. */
export async function updateUserRole(userId: string, role: Role): Promise<void> {
  await apiRequest('PUT', `${USERS_PATH}/${encodeURIComponent(userId)}/role`, { role });
}
