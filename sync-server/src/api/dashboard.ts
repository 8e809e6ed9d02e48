import { Hono } from 'hono';
import { z } from 'zod';
import type { Sql } from '../db/client.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import type { ReadCache } from './read-cache.ts';
import { figuresMoney, fromCents, isoDate, ranchFigures } from '../../../shared/index.ts';
import { saleMoney, storedSales } from './sale-standing.ts';

const query = z.object({ today: isoDate.optional() });

/**
 * `GET /api/dashboard/metrics` (docs/architecture.md "Dashboard metrics" defines each):
 * the shared `ranchFigures` the devices run, over the projection's rows. `today`
 * (YYYY-MM-DD) defaults to the server's date.
 */
export function dashboardRoutes(sql: Sql, cache: ReadCache) {
  const app = new Hono<AuthedEnv>();
  app.get('/dashboard/metrics', validate('query', query), async (c) => {
    const today = c.req.valid('query').today ?? new Date().toISOString().slice(0, 10);
    return cache.respond(c, `dashboard?${today}`, () => metrics(sql, today), true);
  });
  return app;
}

async function metrics(sql: Sql, today: string) {
  const [horses, statuses, sales, money] = await Promise.all([
    sql<{ id: string; statusId: string | null; priceUsd: string | null }[]>`
      select id::text as id, status_id::text as "statusId", price_usd::text as "priceUsd" from horses`,
    sql<{ id: string; name: string }[]>`select id::text as id, name from statuses`,
    storedSales(sql),
    saleMoney(sql),
  ]);
  const figures = ranchFigures({ horses, statuses, sales, ...figuresMoney(money) }, today);
  const ageing = figures.ageing;
  return {
    totalHorses: figures.totalHorses,
    inventoryValue: fromCents(figures.inventoryValueCents),
    activeSales: figures.activeSales,
    pastDue: fromCents(figures.pastDueCents),
    statusDistribution: figures.statusDistribution,
    horsesAddedThisMonth: figures.horsesAddedThisMonth,
    inventoryValueLastMonth: fromCents(figures.inventoryValueLastMonthCents),
    pending: fromCents(figures.pendingCents),
    accountsPastDue: figures.accountsPastDue,
    ageing: {
      current: fromCents(ageing.current),
      days1to30: fromCents(ageing.days1to30),
      days31to60: fromCents(ageing.days31to60),
      days61to90: fromCents(ageing.days61to90),
      over90: fromCents(ageing.over90),
    },
  };
}
