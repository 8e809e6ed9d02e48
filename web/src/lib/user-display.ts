import { DEFAULT_ROLE, type Role, type User } from '../../../shared/index.ts';

type NamedUser = Pick<User, 'firstName' | 'lastName' | 'email'> & { role?: Role | null };

/** [G6]: full name, else e-mail, else 'User'. */
export function displayName(user: NamedUser): string {
  const full = [user.firstName, user.lastName]
    .filter((part) => part?.trim())
    .join(' ')
    .trim();
  return full || user.email || 'User';
}

/** [R2]: a missing role displays as Staff. */
export function displayRole(user: NamedUser): Role {
  return user.role ?? DEFAULT_ROLE;
}

/** Avatar initials; 'U' when there is no name. */
export function initials(user: NamedUser): string {
  const letters = [user.firstName, user.lastName].map((part) => part?.trim()[0] ?? '').join('');
  return letters.toUpperCase() || 'U';
}
