import { useEffect, type ReactNode } from 'react';
import { useRanchData } from '../../data/context.tsx';
import { Layout } from '../../ui/Layout.tsx';
import { useCurrentUser } from './AuthProvider.tsx';

/** The app around every signed-in screen; sync starts here because the user is known. */
export function SignedInShell({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const data = useRanchData();
  useEffect(() => {
    data.connect();
  }, [data]);
  return <Layout user={user}>{children}</Layout>;
}
