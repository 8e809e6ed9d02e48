import { useRecheckedRead } from '../../data/use-rechecked-read.ts';
import { localToday } from '../../lib/local-today.ts';
import type { DashboardMetrics } from './metrics.ts';

/** The tables the figures sum (load-figures.ts). */
const WATCHED = ['horses', 'statuses', 'sales', 'salePayments', 'payments', 'corrections'];

/**
 * The metrics: any change to horses, statuses, sales or payments (local or synced)
 * recomputes them, at most every RECHECK_MS (use-rechecked-read.ts). They are summed where
 * the document is (the data worker), from every horse, sale and payment: read on the page,
 * a large ranch would hold a phone's main thread after each batch of a first sync. undefined while the first read runs.
 */
export function useDashboardMetrics(): DashboardMetrics | undefined {
  return useRecheckedRead((data) => data.loadFigures(localToday()), WATCHED, 'the dashboard figures');
}
