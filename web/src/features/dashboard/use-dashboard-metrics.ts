import { useLiveQuery } from 'dexie-react-hooks';
import { useRanchData } from '../../data/context.tsx';
import { flattenPayments } from '../../data/sale-payments.ts';
import { localToday } from '../../lib/local-today.ts';
import { computeMetrics, type DashboardMetrics } from './metrics.ts';

/**
 * The metrics, live: any change to horses, statuses, sales or payments (local or synced)
 * recomputes them. undefined while the first query runs. The totals need every row, so
 * these are whole-table reads of the four tables the dashboard sums.
 */
export function useDashboardMetrics(): DashboardMetrics | undefined {
  const { db } = useRanchData();
  return useLiveQuery(async () => {
    const [horses, statuses, sales, payments] = await Promise.all([
      db.horses.toArray(),
      db.statuses.toArray(),
      db.sales.toArray(),
      db.salePayments.toArray().then(flattenPayments),
    ]);
    return computeMetrics({ horses, statuses, sales, payments }, localToday());
  }, [db]);
}
