import { toCents } from './money.ts';
import { pastDueCents, saleStatus, type SaleTerms } from './sales.ts';

/** What the Horse Status Distribution calls horses with no status. */
export const NO_STATUS = 'No Status';

export type StatusCount = { name: string; count: number };

/**
 * The dashboard's Horse Status Distribution, the same on every device and over REST
 * (`GET /api/dashboard/metrics`): every status by name, a status no horse has included with
 * 0, then 'No Status' for the horses without one (or naming one that does not exist), when
 * there are any. `horsesByStatus`: how many horses name each status id (null: none).
 */
export function statusDistribution(
  statuses: readonly { id: string; name: string }[],
  horsesByStatus: ReadonlyMap<string | null, number>,
): StatusCount[] {
  const distribution = [...statuses]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((status) => ({ name: status.name, count: horsesByStatus.get(status.id) ?? 0 }));
  const known = new Set(statuses.map((status) => status.id));
  let unnamed = 0;
  for (const [statusId, count] of horsesByStatus) if (statusId === null || !known.has(statusId)) unnamed += count;
  if (unnamed > 0) distribution.push({ name: NO_STATUS, count: unnamed });
  return distribution;
}

/** The dashboard's figures for one ranch on one day; amounts in integer cents. */
export type RanchFigures = {
  totalHorses: number;
  inventoryValueCents: number;
  activeSales: number;
  pastDueCents: number;
  statusDistribution: StatusCount[];
};

/** What the figures are computed from: the same rows on a device (Dexie) and on the server (the projection). */
export type RanchFiguresInput = {
  horses: readonly { id: string; statusId: string | null; priceUsd: string | null }[];
  statuses: readonly { id: string; name: string }[];
  sales: readonly (SaleTerms & { id: string; horseId: string })[];
  /** What was paid on each sale after its down payment, in cents (see `paidCentsBySale`). */
  paidCents: ReadonlyMap<string, number>;
};

/** An amount in cents, 0 for none; a malformed amount (never stored by the app) counts as 0. */
export function centsOrZero(amount: string | null | undefined): number {
  if (!amount) return 0;
  try {
    return toCents(amount);
  } catch {
    return 0;
  }
}

/** What was paid on each sale, in cents, from its payments. */
export function paidCentsBySale(payments: Iterable<{ saleId: string; amount: string }>): Map<string, number> {
  const paid = new Map<string, number>();
  for (const payment of payments) paid.set(payment.saleId, (paid.get(payment.saleId) ?? 0) + centsOrZero(payment.amount));
  return paid;
}

/**
 * Every dashboard figure, computed by this one function on the device and for
 * `GET /api/dashboard/metrics`:
 * - Total horses: every horse.
 * - Inventory value: the listed prices of horses no sale names (a sold horse, open or paid,
 *   has left the inventory for its buyer).
 * - Active sales: sales whose status (`saleStatus`) is Open.
 * - Past due: `pastDueCents` of every open sale on `today` (YYYY-MM-DD).
 * - Status distribution: `statusDistribution`.
 */
export function ranchFigures({ horses, statuses, sales, paidCents }: RanchFiguresInput, today: string): RanchFigures {
  const sold = new Set(sales.map((sale) => sale.horseId));
  let activeSales = 0;
  let pastDue = 0;
  for (const sale of sales) {
    const paid = paidCents.get(sale.id) ?? 0;
    if (saleStatus(sale, paid) !== 'Open') continue;
    activeSales += 1;
    pastDue += pastDueCents(sale, paid, today);
  }
  const byStatus = new Map<string | null, number>();
  let inventory = 0;
  for (const horse of horses) {
    byStatus.set(horse.statusId, (byStatus.get(horse.statusId) ?? 0) + 1);
    if (!sold.has(horse.id)) inventory += centsOrZero(horse.priceUsd);
  }
  return {
    totalHorses: horses.length,
    inventoryValueCents: inventory,
    activeSales,
    pastDueCents: pastDue,
    statusDistribution: statusDistribution(statuses, byStatus),
  };
}
