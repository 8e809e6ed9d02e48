import { useCurrentUser } from '../auth/AuthProvider.tsx';
import { displayName } from '../../lib/user-display.ts';

/** Placeholder until the KPI cards arrive (SPEC §2 Dashboard). */
export function DashboardScreen() {
  const user = useCurrentUser();
  return (
    <section>
      <h1 className="text-3xl font-bold">Dashboard</h1>
      <p className="mt-1 text-base-content/70">Welcome back, {displayName(user)}! Here is what is happening at your ranch.</p>
    </section>
  );
}
