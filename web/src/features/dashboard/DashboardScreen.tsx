import { useCurrentUser } from '../auth/AuthProvider.tsx';
import { useNothingToWaitFor } from '../../data/doc-load-gate.ts';
import { displayName } from '../../lib/user-display.ts';
import { DueSoonCard } from '../care/DueSoonCard.tsx';
import { KpiCards } from './KpiCards.tsx';
import { ReceivablesAgeing } from './ReceivablesAgeing.tsx';
import { RecentActivity } from './RecentActivity.tsx';
import { StatusDistribution } from './StatusDistribution.tsx';
import { useDashboardMetrics } from './use-dashboard-metrics.ts';

/** [D1] Dashboard, computed from the data on this device so it works offline. */
export function DashboardScreen() {
  const user = useCurrentUser();
  // Its figures and due items come from the data host: it starts now (doc-load-gate.ts).
  useNothingToWaitFor();
  const metrics = useDashboardMetrics();
  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold max-md:sr-only">Dashboard</h1>
        <p className="mt-1 text-base-content/70">Welcome back, {displayName(user)}! Here is what is happening at your ranch.</p>
      </div>
      <KpiCards metrics={metrics} />
      <div className="grid gap-4 lg:grid-cols-2">
        <StatusDistribution metrics={metrics} />
        <RecentActivity />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <ReceivablesAgeing metrics={metrics} />
        <DueSoonCard />
      </div>
    </section>
  );
}
