import { useEffect, type ReactNode } from 'react';
import { useRanchData, useSyncStatus } from '../../data/context.tsx';
import { askPersistentStorage } from '../../lib/persist-storage.ts';
import { Layout } from '../../ui/Layout.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { useUploadToasts } from '../photos/use-upload-toasts.ts';
import { useNoticeToasts } from '../sync-notices/use-notices.ts';
import { useCurrentUser } from './AuthProvider.tsx';
import { signInAgain } from './unauthorized.ts';

/** The app around every signed-in screen; sync starts here because the user is known. */
export function SignedInShell({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const data = useRanchData();
  const { sessionExpired } = useSyncStatus();
  const toast = useToast();
  useUploadToasts();
  useNoticeToasts();

  useEffect(() => {
    data.connect();
    void askPersistentStorage();
  }, [data]);

  // The app may have opened offline on the cached user; the socket or a photo upload is
  // the first to learn that the session has since expired. What is on the device stays
  // (document, outbox) and is sent after the next sign-in.
  useEffect(() => {
    if (sessionExpired) return signInAgain(toast);
  }, [sessionExpired, toast]);

  return <Layout user={user}>{children}</Layout>;
}
