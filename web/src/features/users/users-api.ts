import type { AccountLink, Role, User } from '../../../../shared/index.ts';
import { ApiError, apiRequest, getJson } from '../../lib/api.ts';

export const USERS_PATH = '/api/users';

/** [X1], [R4] GET /api/users (Admin only). */
export async function fetchUsers(): Promise<User[]> {
  return (await getJson<User[]>(USERS_PATH)) ?? [];
}

/**
 * [U16] The server wants the Admin's password before this change (their sign-in is more
 * than a few minutes old), or the one given was wrong: a 400 on `currentPassword`.
 * `currentPassword` below is sent only when given.
 */
export function needsPassword(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 400 && error.issues.some((issue) => issue.path === 'currentPassword');
}

/** [U4] PUT /api/users/{userId}/role. */
export async function updateUserRole(userId: string, role: Role, currentPassword?: string): Promise<void> {
  await apiRequest('PUT', `${USERS_PATH}/${encodeURIComponent(userId)}/role`, { role, currentPassword });
}

/** [U11] PATCH /api/users/{userId} with isActive: deactivate (every session ends) or reactivate. */
export async function setUserActive(userId: string, isActive: boolean, currentPassword?: string): Promise<void> {
  await apiRequest('PATCH', `${USERS_PATH}/${encodeURIComponent(userId)}`, { isActive, currentPassword });
}

/** [U12] PUT /api/users/{userId}/password: a new password; every session of theirs ends. */
export async function resetUserPassword(userId: string, password: string, currentPassword?: string): Promise<void> {
  await apiRequest('PUT', `${USERS_PATH}/${encodeURIComponent(userId)}/password`, { password, currentPassword });
}

/** [U17] POST /api/users/invitations: the account (no password yet) and its single-use link. */
export async function inviteUser(input: { email: string; firstName: string; lastName: string; role: Role }, currentPassword?: string) {
  const response = await apiRequest('POST', `${USERS_PATH}/invitations`, { ...input, currentPassword });
  return (await response.json()) as AccountLink;
}

/** [U18] POST /api/users/{userId}/link: a single-use link to set a new password (an invitation again while they have none). */
export async function makeAccountLink(userId: string, currentPassword?: string): Promise<AccountLink> {
  const response = await apiRequest('POST', `${USERS_PATH}/${encodeURIComponent(userId)}/link`, { currentPassword });
  return (await response.json()) as AccountLink;
}
