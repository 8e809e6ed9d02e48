import { DEFAULT_ROLE, type Role, type User } from '../../../../shared/index.ts';

export type RoleFilter = Role | 'all';

export function countByRole(users: User[]): Record<Role, number> {
  const counts: Record<Role, number> = { Admin: 0, Staff: 0, Viewer: 0 };
  for (const user of users) counts[user.role ?? DEFAULT_ROLE] += 1;
  return counts;
}

/** [U3]: the name, or the part of the e-mail before the at sign. */
export function listName(user: Pick<User, 'firstName' | 'lastName' | 'email'>): string {
  const full = [user.firstName, user.lastName]
    .filter((part) => part?.trim())
    .join(' ')
    .trim();
  return full || (user.email.split('@')[0] ?? user.email);
}
