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

/** [U11] PATCH /api/users/{userId} with isActive: deactivate (every session ends) or reactivate. */
export async function setUserActive(userId: string, isActive: boolean): Promise<void> {
  await apiRequest('PATCH', `${USERS_PATH}/${encodeURIComponent(userId)}`, { isActive });
}

/** [U12] PUT /api/users/{userId}/password: a new password; every session of theirs ends. */
export async function resetUserPassword(userId: string, password: string): Promise<void> {
  await apiRequest('PUT', `${USERS_PATH}/${encodeURIComponent(userId)}/password`, { password });
}
