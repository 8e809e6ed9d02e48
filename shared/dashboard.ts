import { toCents } from './money.ts';
import { addReceivables, emptyReceivables, type Ageing } from './receivables.ts';
import { keptCents, type MoneyCorrection, pastDueCents, type SaleMoney, saleMoneyBySale, saleStatus, type SaleTerms } from './sales.ts';

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
  /** [D2] Horses whose record was made this month (by the time in their id, [D12]). */
  horsesAddedThisMonth: number;
  /** [D2] The inventory value at the start of this month, at today's listed prices ([D12]). */
  inventoryValueLastMonthCents: number;
  /** [D2] What the open sales still owe in all (their balances, interest included). */
  pendingCents: number;
  /** [D2] Buyers with something past due. */
  accountsPastDue: number;
  /** [D11] The open sales' balances by how late they are. */
  ageing: Ageing;
};

/** What the figures are computed from: the same rows on a device (Dexie) and on the server (the projection). */
export type RanchFiguresInput = {
  horses: readonly { id: string; statusId: string | null; priceUsd: string | null }[];
  statuses: readonly { id: string; name: string }[];
  sales: readonly (SaleTerms & { id: string; horseId: string; buyerId: string })[];
  /** What was paid on each sale after its down payment and kept (less refunds), in cents (see `paidCentsBySale`). */
  paidCents: ReadonlyMap<string, number>;
  /** [S17] Cancelled sales: neither active nor past due, and their horse is back in the inventory. */
  cancelled?: ReadonlySet<string>;
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

/**
 * What the figures need from each sale's money (`saleMoneyBySale`): what was paid and kept
 * (payments not void, less refunds) and which sales are cancelled.
 */
export function figuresMoney(money: ReadonlyMap<string, SaleMoney>): Pick<RanchFiguresInput, 'paidCents' | 'cancelled'> {
  const paidCents = new Map<string, number>();
  const cancelled = new Set<string>();
  for (const [saleId, sale] of money) {
    paidCents.set(saleId, keptCents(sale));
    if (sale.cancelled) cancelled.add(saleId);
  }
  return { paidCents, cancelled };
}

/** What was paid on each sale and kept, in cents, from its payments and corrections. */
export function paidCentsBySale(
  payments: Iterable<{ id?: string; saleId: string; amount: string }>,
  corrections: Iterable<MoneyCorrection> = [],
): Map<string, number> {
  return new Map(figuresMoney(saleMoneyBySale(payments, corrections)).paidCents);
}

/**
 * [D12] When a record was made, from its id: a UUID v7 (every id Ranch makes, [Y3]) carries
 * the creating device's time in its first 48 bits. null for any other UUID (a record another
 * program made with a random id): its time is unknown.
 */
export function idTime(id: string): number | null {
  if (id.length !== 36 || id[14] !== '7') return null;
  const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  return Number.isFinite(ms) ? ms : null;
}

/** A day in the month after that of `today` (YYYY-MM-DD). */
function addMonthsTo(today: string): string {
  const [year, month] = today.split('-').map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
}

/** The first moment (UTC) of the month of `today` (YYYY-MM-DD). */
export function monthStart(today: string): number {
  return Date.parse(`${today.slice(0, 7)}-01T00:00:00.000Z`);
}

/**
 * Every dashboard figure, computed by this one function on the device and for
 * `GET /api/dashboard/metrics`:
 * - Total horses: every horse.
 * - Inventory value: the listed prices of horses no sale names (a sold horse, open or paid,
 *   has left the inventory for its buyer; a cancelled sale, [S17], names it no more).
 * - Active sales: sales whose status (`saleStatus`) is Open, cancelled ones left out.
 * - Past due: `pastDueCents` of every open sale on `today` (YYYY-MM-DD).
 * - Status distribution: `statusDistribution`.
 * - [D2] [D12] the captions' figures: horses added this month, the inventory at the month's
 *   start, what open sales owe, the buyers with something past due; [D11] the ageing.
 */
export function ranchFigures({ horses, statuses, sales, paidCents, cancelled }: RanchFiguresInput, today: string): RanchFigures {
  const standing = sales.filter((sale) => !cancelled?.has(sale.id));
  const sold = new Set(standing.map((sale) => sale.horseId));
  const start = monthStart(today);
  const nextMonth = monthStart(addMonthsTo(today));
  // A sale made before this month had taken its horse out of last month's inventory.
  const soldBefore = new Set(standing.filter((sale) => Date.parse(sale.createdAt) < start).map((sale) => sale.horseId));
  let activeSales = 0;
  let pastDue = 0;
  const receivables = emptyReceivables();
  const lateBuyers = new Set<string>();
  for (const sale of sales) {
    if (cancelled?.has(sale.id)) continue;
    const paid = paidCents.get(sale.id) ?? 0;
    if (saleStatus(sale, paid) !== 'Open') continue;
    activeSales += 1;
    const late = pastDueCents(sale, paid, today);
    pastDue += late;
    if (late > 0) lateBuyers.add(sale.buyerId);
    addReceivables(receivables, sale, paid, today);
  }
  const byStatus = new Map<string | null, number>();
  let inventory = 0;
  let inventoryBefore = 0;
  let added = 0;
  for (const horse of horses) {
    byStatus.set(horse.statusId, (byStatus.get(horse.statusId) ?? 0) + 1);
    const price = centsOrZero(horse.priceUsd);
    if (!sold.has(horse.id)) inventory += price;
    const made = idTime(horse.id);
    const addedThisMonth = made !== null && made >= start && made < nextMonth;
    if (addedThisMonth) added += 1;
    else if (!soldBefore.has(horse.id)) inventoryBefore += price;
  }
  return {
    totalHorses: horses.length,
    inventoryValueCents: inventory,
    activeSales,
    pastDueCents: pastDue,
    statusDistribution: statusDistribution(statuses, byStatus),
    horsesAddedThisMonth: added,
    inventoryValueLastMonthCents: inventoryBefore,
    pendingCents: receivables.owedCents,
    accountsPastDue: lateBuyers.size,
    ageing: receivables.ageing,
  };
}
