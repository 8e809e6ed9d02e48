import type { ReactNode } from 'react';
import { useAuth } from './AuthProvider.tsx';
import { KeptOnDeviceNotice } from './KeptChangesNotice.tsx';
import { LandingScreen } from './LandingScreen.tsx';

/** [A2]: nothing while loading, the landing screen when signed out, else the app. */
export function AuthGate({ children }: { children: ReactNode }) {
  const auth = useAuth();
  if (auth.status === 'loading') return null;
  if (auth.status === 'signed-out') return <LandingScreen notice={<KeptOnDeviceNotice />} />;
  return <>{children}</>;
}
