import { formatMillions, formatThousands, type DashboardMetrics } from './metrics.ts';

/** [D2] fixed captions, under the cards they were written for. */
const CARDS = [
  { title: 'Total Horses', caption: '+3 this month', value: (m: DashboardMetrics) => String(m.totalHorses) },
  { title: 'Inventory Value', caption: '+5.2% from last month', value: (m: DashboardMetrics) => formatMillions(m.inventoryValueCents) },
  { title: 'Active Sales', caption: '$180K pending', value: (m: DashboardMetrics) => String(m.activeSales) },
  { title: 'Past Due', caption: '4 accounts', value: (m: DashboardMetrics) => formatThousands(m.pastDueCents) },
] as const;

export function KpiCards({ metrics }: { metrics: DashboardMetrics | undefined }) {
  if (!metrics) {
    return (
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4" role="status" aria-busy="true" aria-label="Loading metrics">
        {CARDS.map((card) => (
          <div key={card.title} className="skeleton h-28 w-full" data-testid="kpi-skeleton" />
        ))}
      </div>
    );
  }
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Key figures">
      {CARDS.map((card) => (
        <li key={card.title} className="card bg-base-100 shadow-sm" aria-label={card.title}>
          <div className="card-body gap-1 p-5">
            <p className="text-sm font-medium text-base-content/70">{card.title}</p>
            <p className="text-2xl font-bold" data-testid="kpi-value">
              {card.value(metrics)}
            </p>
            <p className="text-xs text-base-content/60">{card.caption}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
