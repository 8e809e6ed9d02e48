import { pastDueCents, saleStatus, statusDistribution, toCents, type Horse, type LookupItem, type Payment, type StatusCount, type StoredSale } from '../../../../shared/index.ts';

export { NO_STATUS } from '../../../../shared/index.ts';

/** SPEC §3 dashboard metrics, computed on the device from the local data (amounts in cents). */
export type DashboardMetrics = {
  totalHorses: number;
  inventoryValueCents: number;
  activeSales: number;
  pastDueCents: number;
  statusDistribution: StatusCount[];
};

export type DashboardData = {
  horses: Pick<Horse, 'id' | 'statusId' | 'priceUsd'>[];
  statuses: Pick<LookupItem, 'id' | 'name'>[];
  sales: StoredSale[];
  payments: Pick<Payment, 'saleId' | 'amount'>[];
};

const cents = (amount: string | null) => {
  if (!amount) return 0;
  try {
    return toCents(amount);
  } catch {
    return 0;
  }
};

/**
 * - Inventory value: the listed prices of horses that are not sold; a horse is sold once a
 *   sale names it (open or paid), since it has left the inventory for its buyer.
 * - Active sales: sales whose derived status is Open (shared saleStatus).
 * - Past due: shared pastDueCents of every open sale on `today` (the viewer's date).
 */
export function computeMetrics({ horses, statuses, sales, payments }: DashboardData, today: string): DashboardMetrics {
  const paidBySale = new Map<string, number>();
  for (const payment of payments) paidBySale.set(payment.saleId, (paidBySale.get(payment.saleId) ?? 0) + cents(payment.amount));

  const sold = new Set(sales.map((sale) => sale.horseId));
  let activeSales = 0;
  let pastDue = 0;
  for (const sale of sales) {
    const paid = paidBySale.get(sale.id) ?? 0;
    if (saleStatus(sale, paid) !== 'Open') continue;
    activeSales += 1;
    pastDue += pastDueCents(sale, paid, today);
  }

  const byStatus = new Map<string | null, number>();
  for (const horse of horses) byStatus.set(horse.statusId, (byStatus.get(horse.statusId) ?? 0) + 1);

  return {
    totalHorses: horses.length,
    inventoryValueCents: horses.filter((horse) => !sold.has(horse.id)).reduce((sum, horse) => sum + cents(horse.priceUsd), 0),
    activeSales,
    pastDueCents: pastDue,
    statusDistribution: statusDistribution(statuses, byStatus),
  };
}

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
