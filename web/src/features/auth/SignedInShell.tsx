import { useEffect, type ReactNode } from 'react';
import { useRanchData, useSyncStatus } from '../../data/context.tsx';
import { Layout } from '../../ui/Layout.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { useCurrentUser } from './AuthProvider.tsx';
import { signInAgain } from './unauthorized.ts';

/** The app around every signed-in screen; sync starts here because the user is known. */
export function SignedInShell({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const data = useRanchData();
  const { connection } = useSyncStatus();
  const toast = useToast();

  useEffect(() => {
    data.connect();
  }, [data]);

  // The app may have opened offline on the cached user; the socket is the first to learn
  // that the session has since expired.
  useEffect(() => {
    if (connection === 'unauthorized') return signInAgain(toast);
  }, [connection, toast]);

  return <Layout user={user}>{children}</Layout>;
}
