import type { Unsent } from '../../data/data-owner.ts';
import { clearLocalData, type OpenLocalData } from '../settings/clear-local-data.ts';

/**
 * [A6] [G6]: "Sign out" POSTs here (a GET only asks, with a form that POSTs: the link's
 * fallback without scripts); the browser then lands on the landing screen, `/`.
 */
export const LOGOUT_PATH = '/api/logout';
export const LANDING_PATH = '/';
/** Ends every session of the signed-in user ("Sign out everywhere"). */
export const LOGOUT_EVERYWHERE_PATH = '/api/auth/logout-everywhere';

export type SignOutResult = 'done' | 'unreachable';

export const nothingUnsent = ({ records, photos }: Unsent) => records + photos === 0;

/**
 * Ends the session on the server first, so a device that could not reach it keeps
 * everything (and the person is told); false then. `everywhere` ends all of the user's
 * sessions. An answer of any kind means the server has it.
 */
export async function endSession(everywhere: boolean, fetchFn: typeof fetch = fetch): Promise<boolean> {
  try {
    const response = await fetchFn(everywhere ? LOGOUT_EVERYWHERE_PATH : LOGOUT_PATH, {
      method: 'POST',
      credentials: 'include',
      cache: 'no-store',
    });
    // A 401 means it had already ended.
    return response.ok || response.status === 401;
  } catch {
    return false;
  }
}

/**
 * [A11]: signs out on the server, then clears the ranch from this device (the document, the
 * read model, the photo outbox, localStorage with the cached user and this browser's
 * settings, the caches but the app's own files), then lands on the landing screen ([G6]). Call it once nothing is unsent, or when the person chose to lose it.
 */
export async function signOutAndClear(
  data: OpenLocalData,
  {
    everywhere = false,
    fetchFn,
    navigate = (path: string) => window.location.assign(path),
  }: { everywhere?: boolean; fetchFn?: typeof fetch; navigate?: (path: string) => void } = {},
): Promise<SignOutResult> {
  if (!(await endSession(everywhere, fetchFn ?? fetch))) return 'unreachable';
  await clearLocalData(data, { keepAppShell: true });
  navigate(LANDING_PATH);
  return 'done';
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** '1 change', '3 changes and 1 photo', '2 photos'. */
export function unsentText({ records, photos }: Unsent): string {
  const parts: string[] = [];
  if (records > 0) parts.push(plural(records, 'change', 'changes'));
  if (photos > 0) parts.push(plural(photos, 'photo', 'photos'));
  return parts.join(' and ');
}

/** Whether the sentence takes 'has'/'was' (one thing) or 'have'/'were'. */
export const isOne = ({ records, photos }: Unsent) => records + photos === 1;
