import { compactUsd, kpiCaptions } from '../../../../shared/index.ts';
import type { DashboardMetrics } from './metrics.ts';

/** [D2] The four cards, each with its caption in the seed's form filled with the real figure. */
const CARDS = [
  { title: 'Total Horses', value: (m: DashboardMetrics) => m.totalHorses.toLocaleString('en-US'), caption: 'totalHorses' },
  { title: 'Inventory Value', value: (m: DashboardMetrics) => compactUsd(m.inventoryValueCents), caption: 'inventoryValue' },
  { title: 'Active Sales', value: (m: DashboardMetrics) => m.activeSales.toLocaleString('en-US'), caption: 'activeSales' },
  { title: 'Past Due', value: (m: DashboardMetrics) => compactUsd(m.pastDueCents), caption: 'pastDue' },
] as const;

export function KpiCards({ metrics }: { metrics: DashboardMetrics | undefined }) {
  if (!metrics) {
    return (
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" role="status" aria-busy="true" aria-label="Loading metrics">
        {CARDS.map((card) => (
          <div key={card.title} className="skeleton h-28 w-full" data-testid="kpi-skeleton" />
        ))}
      </div>
    );
  }
  const captions = kpiCaptions(metrics);
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" aria-label="Key figures">
      {CARDS.map((card) => (
        <li key={card.title} className="card bg-base-100 shadow-sm" aria-label={card.title}>
          <div className="card-body gap-1 p-4 sm:p-5">
            <p className="text-sm font-medium text-base-content/70">{card.title}</p>
            <p className="text-2xl font-bold" data-testid="kpi-value">
              {card.value(metrics)}
            </p>
            <p className="text-xs text-base-content/60" data-testid="kpi-caption">
              {captions[card.caption]}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
