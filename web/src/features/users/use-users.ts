import { useCallback, useEffect, useState } from 'react';
import { isNetworkError, isUnauthorized } from '../../lib/api.ts';
import { useToast } from '../../ui/Toast.tsx';
import { signInAgain } from '../auth/unauthorized.ts';
import { keepUsers, readKeptUsers, type KeptUsers } from './kept-users.ts';
import { fetchUsers } from './users-api.ts';

/**
 * `loaded`: fetched from the server since the screen opened. Otherwise `list` is the one this
 * device kept from the Admin's last fetch ([U20]), or null when it has none.
 */
export type UsersState =
  | { status: 'idle' | 'loading' | 'offline' | 'error'; list: KeptUsers | null }
  | { status: 'loaded'; list: KeptUsers };

/**
 * The account list from the server; accounts are not in the synced document, so a fresh list
 * needs a connection. Fetched only when `adminId` is given ([R4]: only for admins) and again
 * when the browser comes back online; each list fetched is kept on the device for the next
 * time there is no signal ([U20]), and shown meanwhile.
 */
export function useUsers(adminId: string | null, online: boolean) {
  const toast = useToast();
  const [state, setState] = useState<UsersState>(() => ({ status: 'idle', list: adminId ? readKeptUsers(adminId) : null }));

  const load = useCallback(async () => {
    if (!adminId) return;
    setState((current) => (current.status === 'loaded' ? current : { status: 'loading', list: current.list ?? readKeptUsers(adminId) }));
    try {
      const list = { users: await fetchUsers(), fetchedAt: new Date().toISOString() };
      keepUsers(adminId, list);
      setState({ status: 'loaded', list });
    } catch (error) {
      if (isUnauthorized(error)) signInAgain(toast);
      else if (!isNetworkError(error)) console.error(error);
      setState((current) => ({ status: isNetworkError(error) ? 'offline' : 'error', list: current.list }));
    }
  }, [adminId, toast]);

  useEffect(() => {
    if (!adminId) return;
    if (!online) {
      setState((current) => (current.status === 'loaded' ? current : { status: 'offline', list: current.list ?? readKeptUsers(adminId) }));
      return;
    }
    void load();
  }, [adminId, online, load]);

  return { state, reload: load };
}
