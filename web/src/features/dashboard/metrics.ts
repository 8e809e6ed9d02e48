import type { RanchFigures } from '../../../../shared/index.ts';

export { NO_STATUS } from '../../../../shared/index.ts';

/** The dashboard's figures, computed on the device from the local data by shared `ranchFigures` (amounts in cents). */
export type DashboardMetrics = RanchFigures;

/** [D3]: count / totalHorses as a whole percent; 0 when there are no horses. */
export function statusPercent(count: number, totalHorses: number): number {
  return totalHorses === 0 ? 0 : Math.round((count / totalHorses) * 100);
}
