import type { User } from '../../../../shared/index.ts';

/**
 * The last signed-in user, kept so the app opens offline in a paddock with no signal.
 * Only profile fields are stored; the session itself stays in its HttpOnly cookie.
 */
export const CACHED_USER_KEY = 'ranch.user';
/** [U20] The user list an Admin last fetched (features/users/kept-users.ts): forgotten with the user. */
export const KEPT_USERS_KEY = 'ranch.users';

export function readCachedUser(): User | null {
  try {
    const raw = localStorage.getItem(CACHED_USER_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isUser(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function writeCachedUser(user: User): void {
  try {
    localStorage.setItem(CACHED_USER_KEY, JSON.stringify(user));
  } catch {
    // Storage full or disabled (private mode): the app still works online.
  }
}

export function clearCachedUser(): void {
  try {
    localStorage.removeItem(CACHED_USER_KEY);
    localStorage.removeItem(KEPT_USERS_KEY);
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}

export function isUser(value: unknown): value is User {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { id?: unknown }).id === 'string' &&
    typeof (value as { email?: unknown }).email === 'string'
  );
}
