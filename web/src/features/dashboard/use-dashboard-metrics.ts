import { useLiveQuery } from 'dexie-react-hooks';
import { useRanchData } from '../../data/context.tsx';
import { localToday } from '../../lib/local-today.ts';
import { loadRanchFigures } from './load-figures.ts';
import type { DashboardMetrics } from './metrics.ts';

/**
 * The metrics, live: any change to horses, statuses, sales or payments (local or synced)
 * recomputes them. undefined while the first query runs.
 */
export function useDashboardMetrics(): DashboardMetrics | undefined {
  const { db } = useRanchData();
  return useLiveQuery(() => loadRanchFigures(db, localToday()), [db]);
}
