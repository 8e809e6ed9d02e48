import type { RanchFigures } from '../../../../shared/index.ts';

export { NO_STATUS } from '../../../../shared/index.ts';

/** The dashboard's figures, computed on the device from the local data by shared `ranchFigures` (amounts in cents). */
export type DashboardMetrics = RanchFigures;

/** [D5]: Inventory Value in millions with 1 decimal ('$x.xM'). */
export function formatMillions(amountCents: number): string {
  // Rounded in whole tenths of a million first: 1.45M must not become 1.4 through binary floats.
  const tenths = Math.round(amountCents / 10_000_000);
  return `$${Math.floor(tenths / 10)}.${tenths % 10}M`;
}

/** [D7]: Past Due in thousands with 0 decimals ('$xK'). */
export function formatThousands(amountCents: number): string {
  return `$${Math.round(amountCents / 100_000)}K`;
}

/** [D3]: count / totalHorses as a whole percent; 0 when there are no horses. */
export function statusPercent(count: number, totalHorses: number): number {
  return totalHorses === 0 ? 0 : Math.round((count / totalHorses) * 100);
}
