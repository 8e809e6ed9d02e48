import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { User } from '../../../../shared/index.ts';
import { loadUser, type AuthState } from './load-user.ts';

const AuthContext = createContext<AuthState>({ status: 'loading' });
const RefreshContext = createContext<() => Promise<void>>(async () => {});

export function AuthProvider({ children, load = loadUser }: { children: ReactNode; load?: () => Promise<AuthState> }) {
  const [state, setState] = useState<AuthState>({ status: 'loading' });

  useEffect(() => {
    let cancelled = false;
    load()
      .catch((): AuthState => ({ status: 'signed-out' }))
      .then((next) => {
        if (!cancelled) setState(next);
      });
    return () => {
      cancelled = true;
    };
  }, [load]);

  // [U8]: after PUT /api/auth/user the current user is read again (and cached anew).
  // A failed refresh keeps the user shown; the gate must not flash while it runs.
  const refresh = useCallback(async () => {
    const next = await load().catch(() => null);
    if (next && next.status !== 'loading') setState(next);
  }, [load]);

  return (
    <AuthContext.Provider value={state}>
      <RefreshContext.Provider value={refresh}>{children}</RefreshContext.Provider>
    </AuthContext.Provider>
  );
}

export function useAuth(): AuthState {
  return useContext(AuthContext);
}

/** Reads the current user from the server again, e.g. after the profile changed. */
export function useRefreshUser(): () => Promise<void> {
  return useContext(RefreshContext);
}

/** For screens inside the auth gate, where a user is always present. */
export function useCurrentUser(): User {
  const state = useContext(AuthContext);
  if (state.status !== 'signed-in') throw new Error('useCurrentUser used outside the signed-in area');
  return state.user;
}
