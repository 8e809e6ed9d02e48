import type { ToastInput } from '../../ui/Toast.tsx';
import { LOGIN_PATH } from './LandingScreen.tsx';
import { clearCachedUser } from './user-cache.ts';

/** [A7]: the delay before the browser is sent to sign in again. */
export const UNAUTHORIZED_REDIRECT_MS = 500;

/**
 * [A7]: a logged-out session (a 401 from any call, or the sync socket refused with
 * 4401) shows a destructive toast, then sends the browser to sign in again. The cached
 * user is forgotten so the app does not reopen on it.
 */
export function signInAgain(
  toast: (toast: ToastInput) => void,
  navigate: (path: string) => void = (path) => window.location.assign(path),
): () => void {
  clearCachedUser();
  toast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' });
  const timer = setTimeout(() => navigate(LOGIN_PATH), UNAUTHORIZED_REDIRECT_MS);
  return () => clearTimeout(timer);
}
