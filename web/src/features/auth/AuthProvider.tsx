import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { User } from '../../../../shared/index.ts';
import { loadUser, type AuthState } from './load-user.ts';

const AuthContext = createContext<AuthState>({ status: 'loading' });

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

  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  return useContext(AuthContext);
}

/** For screens inside the auth gate, where a user is always present. */
export function useCurrentUser(): User {
  const state = useContext(AuthContext);
  if (state.status !== 'signed-in') throw new Error('useCurrentUser used outside the signed-in area');
  return state.user;
}
