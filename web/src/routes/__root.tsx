import { createRootRoute, Outlet, useBlocker } from '@tanstack/react-router';
import { AuthGate } from '../features/auth/AuthGate.tsx';
import { SignedInShell } from '../features/auth/SignedInShell.tsx';
import { NotFoundScreen } from '../features/not-found/NotFoundScreen.tsx';
import { closeTopForm } from '../ui/back-closes-forms.ts';

export const Route = createRootRoute({
  component: () => (
    <AuthGate>
      <SignedInShell>
        <BackClosesForms />
        <Outlet />
      </SignedInShell>
    </AuthGate>
  ),
  notFoundComponent: NotFoundScreen,
});

/**
 * [B15] The browser's Back with a form dialog open closes the form (asking first when it has
 * changes) and stays on the screen: the navigation is blocked and the address kept.
 */
const backClosesForm = ({ action }: { action: string }) => action === 'BACK' && closeTopForm();

function BackClosesForms() {
  useBlocker({ shouldBlockFn: backClosesForm, enableBeforeUnload: false });
  return null;
}
