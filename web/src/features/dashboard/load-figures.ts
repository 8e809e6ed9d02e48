import { figuresMoney, ranchFigures, saleMoneyBySale, type RanchFigures } from '../../../../shared/index.ts';
import type { RanchDb } from '../../data/db.ts';
import { readAllByKey } from '../../data/read-by-key.ts';
import { allPayments } from '../../data/ledger/read-payments.ts';

/**
 * The dashboard's figures from the device's tables on `today` (YYYY-MM-DD): whole-table
 * reads of the four tables they sum (the three large ones a page per request,
 * read-by-key.ts), then the shared `ranchFigures`, the same function
 * `GET /api/dashboard/metrics` answers with.
 */
export async function loadRanchFigures(db: RanchDb, today: string): Promise<RanchFigures> {
  const [horses, statuses, sales, payments, corrections] = await Promise.all([
    readAllByKey(db.horses),
    db.statuses.toArray(),
    readAllByKey(db.sales),
    allPayments(db, true),
    db.corrections.toArray(),
  ]);
  return ranchFigures({ horses, statuses, sales, ...figuresMoney(saleMoneyBySale(payments, corrections)) }, today);
}
