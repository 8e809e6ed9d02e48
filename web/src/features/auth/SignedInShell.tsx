import { useCallback, useEffect, type ReactNode } from 'react';
import { useRanchData, useSyncField } from '../../data/context.tsx';
import { askPersistentStorage } from '../../lib/persist-storage.ts';
import { displayName } from '../../lib/user-display.ts';
import { Layout } from '../../ui/Layout.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { useUploadToasts } from '../photos/use-upload-toasts.ts';
import { refreshRanchDetails } from '../ranch/ranch-details.ts';
import { useNoticeToasts } from '../sync-notices/use-notices.ts';
import { useCurrentUser } from './AuthProvider.tsx';
import { HeldChangesScreen } from './HeldChangesScreen.tsx';
import { LandingScreen } from './LandingScreen.tsx';
import { KeptChangesNotice } from './KeptChangesNotice.tsx';
import { useSessionEnded } from './session-ended.ts';
import { signInAgain } from './unauthorized.ts';
import { useDataOwnerGate } from './use-data-owner.ts';

const reload = () => window.location.reload();

/**
 * The app around every signed-in screen. Sync starts here because the user is known, and
 * only when the data on this device is theirs ([A12]). The app may have opened offline on
 * the cached user; the socket or a photo upload is the first to learn that the session has
 * since ended ([A13]).
 */
export function SignedInShell({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const data = useRanchData();
  const sessionExpired = useSyncField('sessionExpired');
  const documentReplaced = useSyncField('documentReplaced');
  const toast = useToast();
  const gate = useDataOwnerGate(user);
  const toSignIn = useCallback(() => void signInAgain(toast), [toast]);
  const kept = useSessionEnded(sessionExpired, { data, signInAgain: toSignIn, reload });
  useUploadToasts();
  useNoticeToasts();
  useEffect(() => {
    void askPersistentStorage();
  }, []);
  // [L9] The ranch's details for receipts: read at the start and whenever the device is back online.
  const online = useSyncField('online');
  useEffect(() => {
    if (online) void refreshRanchDetails();
  }, [online]);
  // The server's document was rebuilt (docs/sync-rules.md "Document epochs"): this device's
  // copy is gone, its unsent changes kept; a fresh start takes the new document and them.
  useEffect(() => {
    if (documentReplaced) reload();
  }, [documentReplaced]);
  if (kept) return <LandingScreen notice={<KeptChangesNotice unsent={kept} name={displayName(user)} />} />;
  if (gate.kind === 'held') return <HeldChangesScreen user={user} owner={gate.owner} unsent={gate.unsent} />;
  if (gate.kind === 'checking') return null;
  return <Layout user={user}>{children}</Layout>;
}
