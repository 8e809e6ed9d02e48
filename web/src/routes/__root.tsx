import { createRootRoute, Outlet } from '@tanstack/react-router';
import { AuthGate } from '../features/auth/AuthGate.tsx';
import { SignedInShell } from '../features/auth/SignedInShell.tsx';
import { NotFoundScreen } from '../features/not-found/NotFoundScreen.tsx';

export const Route = createRootRoute({
  component: () => (
    <AuthGate>
      <SignedInShell>
        <Outlet />
      </SignedInShell>
    </AuthGate>
  ),
  notFoundComponent: NotFoundScreen,
});
