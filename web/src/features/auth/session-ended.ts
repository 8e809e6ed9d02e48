import { useEffect, useState } from 'react';
import type { Unsent } from '../../data/data-owner.ts';
import type { PageData } from '../../data/page-data.ts';
import { clearLocalData } from '../settings/clear-local-data.ts';
import { nothingUnsent } from '../sign-out/sign-out.ts';
import { AUTH_USER_PATH } from './load-user.ts';
import { clearCachedUser } from './user-cache.ts';

/** How long to wait before asking the server again when it could not be reached. */
export const SESSION_CHECK_RETRY_MS = 5000;

export type SessionCheck = 'signed-in' | 'signed-out' | 'unreachable';

/** Whether the session still stands: `GET /api/auth/user` answers 200 or 401. */
export async function checkSession(fetchFn: typeof fetch = fetch): Promise<SessionCheck> {
  try {
    const response = await fetchFn(AUTH_USER_PATH, { credentials: 'include', cache: 'no-store' });
    if (response.status === 401) return 'signed-out';
    return response.ok ? 'signed-in' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}

export type SessionEndedDeps = {
  data: Pick<PageData, 'countUnsent' | 'stopSync' | 'clearDocument' | 'db'>;
  /** [A7]: the toast and the way to the sign-in page, once nothing is left on the device. */
  signInAgain: () => void;
  reload: () => void;
  fetchFn?: typeof fetch;
  retryMs?: number;
};

/**
 * [A13]: the server refused this session (the sync socket closed with 4401, or a photo
 * upload answered 401). The session is asked for once more: still signed in → the page
 * starts again; signed out → nothing more is sent, and with changes unsent they stay on the
 * device (the answer is their count, for the signed-out screen), else the device is cleared
 * as a sign-out would and [A7] runs. While the server cannot be reached, it asks again.
 */
export function useSessionEnded(sessionExpired: boolean, deps: SessionEndedDeps): Unsent | null {
  const [kept, setKept] = useState<Unsent | null>(null);
  const { data, signInAgain, reload, fetchFn, retryMs = SESSION_CHECK_RETRY_MS } = deps;
  useEffect(() => {
    if (!sessionExpired) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      const answer = await checkSession(fetchFn);
      if (!live) return;
      if (answer === 'unreachable') {
        timer = setTimeout(() => void run(), retryMs);
        return;
      }
      if (answer === 'signed-in') return reload();
      // Nothing more leaves this device under this session, nor under the next one's.
      data.stopSync();
      clearCachedUser();
      const unsent = await data.countUnsent();
      if (!live) return;
      if (!nothingUnsent(unsent)) return setKept(unsent);
      await clearLocalData(data, { keepAppShell: true });
      signInAgain();
    };
    void run();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [sessionExpired, data, signInAgain, reload, fetchFn, retryMs]);
  return kept;
}
