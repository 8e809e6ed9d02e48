import { paidCentsBySale, ranchFigures, type RanchFigures } from '../../../../shared/index.ts';
import type { RanchDb } from '../../data/db.ts';
import { flattenPayments } from '../../data/sale-payments-row.ts';

/**
 * The dashboard's figures from the device's tables on `today` (YYYY-MM-DD): whole-table
 * reads of the four tables they sum, then the shared `ranchFigures`, the same function
 * `GET /api/dashboard/metrics` answers with.
 */
export async function loadRanchFigures(db: RanchDb, today: string): Promise<RanchFigures> {
  const [horses, statuses, sales, payments] = await Promise.all([
    db.horses.toArray(),
    db.statuses.toArray(),
    db.sales.toArray(),
    db.salePayments.toArray().then(flattenPayments),
  ]);
  return ranchFigures({ horses, statuses, sales, paidCents: paidCentsBySale(payments) }, today);
}
