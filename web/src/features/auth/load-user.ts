import type { User } from '../../../../shared/index.ts';
import { getJson, isNetworkError } from '../../lib/api.ts';
import { clearCachedUser, readCachedUser, writeCachedUser } from './user-cache.ts';

export type AuthState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  /** `offline` is true when the server could not be reached and the cached user is shown. */
  | { status: 'signed-in'; user: User; offline: boolean };

export const AUTH_USER_PATH = '/api/auth/user';

/**
 * Asks the server who is signed in. A 401 is the only answer that signs the device out;
 * when the server cannot be reached (no network, or a gateway in between answering 5xx)
 * the last known user is used so the app keeps working offline.
 */
export async function loadUser(): Promise<AuthState> {
  try {
    const user = await getJson<User>(AUTH_USER_PATH, 'returnNull');
    if (user === null) {
      clearCachedUser();
      return { status: 'signed-out' };
    }
    writeCachedUser(user);
    return { status: 'signed-in', user, offline: false };
  } catch (error) {
    if (!isNetworkError(error) && !isServerUnavailable(error)) throw error;
    const cached = readCachedUser();
    return cached ? { status: 'signed-in', user: cached, offline: true } : { status: 'signed-out' };
  }
}

function isServerUnavailable(error: unknown): boolean {
  return error instanceof Error && /^(502|503|504): /.test(error.message);
}
