import { statusBarClass, statusDotClass } from '../../ui/status-tone.ts';
import { statusPercent, type DashboardMetrics } from './metrics.ts';

export function StatusDistribution({ metrics }: { metrics: DashboardMetrics | undefined }) {
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="dashboard-status-distribution">
      <div className="card-body">
        <h2 id="dashboard-status-distribution" className="card-title">
          Horse Status Distribution
        </h2>
        {!metrics ? (
          <div className="skeleton h-24 w-full" />
        ) : metrics.statusDistribution.length === 0 ? (
          <p className="text-base-content/60">No statuses yet</p>
        ) : (
          <ul className="space-y-3">
            {metrics.statusDistribution.map((item) => {
              const percent = statusPercent(item.count, metrics.totalHorses);
              return (
                <li key={item.name} aria-label={item.name}>
                  <div className="flex items-center justify-between text-sm">
                    <span className="flex items-center gap-2 font-medium">
                      <span className={`size-2.5 rounded-full ${statusDotClass(item.name)}`} aria-hidden="true" />
                      {item.name}
                    </span>
                    <span className="text-base-content/70">
                      <span data-testid="status-count">{item.count}</span> (<span data-testid="status-percent">{percent}%</span>)
                    </span>
                  </div>
                  <progress className={`progress w-full ${statusBarClass(item.name)}`} value={percent} max={100} aria-hidden="true" />
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
