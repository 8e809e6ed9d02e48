import type { User } from '../../../../shared/index.ts';
import { isUser, KEPT_USERS_KEY } from '../auth/user-cache.ts';
import { timeAgo } from '../../ui/relative-time.ts';

/**
 * [U20] The last user list an Admin fetched on this device, and when, so the Users screen
 * and a user's link open with no signal. Kept in localStorage beside the signed-in user
 * (auth/user-cache.ts, which forgets both) and gone with it: a sign-out, a session ended,
 * another person signing in on the device, or Clear Local Data. Only the Admin who fetched it reads it.
 */
export type KeptUsers = { users: User[]; fetchedAt: string };

export function readKeptUsers(adminId: string): KeptUsers | null {
  try {
    const raw = localStorage.getItem(KEPT_USERS_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (!isKept(parsed) || parsed.by !== adminId) return null;
    return { users: parsed.users, fetchedAt: parsed.fetchedAt };
  } catch {
    return null;
  }
}

export function keepUsers(adminId: string, kept: KeptUsers): void {
  try {
    localStorage.setItem(KEPT_USERS_KEY, JSON.stringify({ by: adminId, ...kept }));
  } catch {
    // Storage full or disabled: the list still shows while the screen is open.
  }
}

function isKept(value: unknown): value is KeptUsers & { by: string } {
  if (typeof value !== 'object' || value === null) return false;
  const { by, fetchedAt, users } = value as Record<string, unknown>;
  return (
    typeof by === 'string' &&
    typeof fetchedAt === 'string' &&
    !Number.isNaN(Date.parse(fetchedAt)) &&
    Array.isArray(users) &&
    users.every(isUser)
  );
}

/** [U20] When a kept list was fetched, for the offline note: '3 h ago (Mar 2, 2026, 10:15 AM)'. */
export function fetchedWhen(fetchedAt: string, now: number = Date.now()): string {
  const at = Date.parse(fetchedAt);
  return `${timeAgo(at, now)} (${new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })})`;
}
