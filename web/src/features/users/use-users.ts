import { useCallback, useEffect, useState } from 'react';
import type { User } from '../../../../shared/index.ts';
import { isNetworkError, isUnauthorized } from '../../lib/api.ts';
import { useToast } from '../../ui/Toast.tsx';
import { signInAgain } from '../auth/unauthorized.ts';
import { fetchUsers } from './users-api.ts';

export type UsersState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'offline' }
  | { status: 'error' }
  | { status: 'loaded'; users: User[] };

/**
 * The account list from the server; accounts are not in the synced document, so this
 * needs a connection. Fetched only when `enabled` ([R4]: only for admins) and again
 * when the browser comes back online.
 */
export function useUsers(enabled: boolean, online: boolean) {
  const toast = useToast();
  const [state, setState] = useState<UsersState>({ status: 'idle' });

  const load = useCallback(async () => {
    setState((current) => (current.status === 'loaded' ? current : { status: 'loading' }));
    try {
      setState({ status: 'loaded', users: await fetchUsers() });
    } catch (error) {
      if (isUnauthorized(error)) signInAgain(toast);
      else if (!isNetworkError(error)) console.error(error);
      setState({ status: isNetworkError(error) ? 'offline' : 'error' });
    }
  }, [toast]);

  useEffect(() => {
    if (!enabled) return;
    if (!online) {
      setState((current) => (current.status === 'loaded' ? current : { status: 'offline' }));
      return;
    }
    void load();
  }, [enabled, online, load]);

  return { state, reload: load };
}
