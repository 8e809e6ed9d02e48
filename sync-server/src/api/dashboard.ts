import { Hono } from 'hono';
import { z } from 'zod';
import type { Sql } from '../db/client.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import type { ReadCache } from './read-cache.ts';
import { fromCents, isoDate, statusDistribution } from '../../../shared/index.ts';
import { SALE_PAID_SQL } from './sale-sql.ts';

const query = z.object({ today: isoDate.optional() });

/**
 * Past due, in cents, per open sale: the installments due on or before :today less what was
 * paid, never negative. Mirrors shared/sales.ts (installmentSchedule, pastDueCents) step by
 * step, in float8 like JavaScript numbers and with floor(x + 0.5) like Math.round.
 */
const PAST_DUE_SQL = /* sql */ `
  with paid as (select sale_id, sum(amount) as paid from payments group by sale_id),
  open_sales as (
    select s.terms_months as n,
           ((s.sale_price - s.down_payment) * 100)::bigint as financed,
           (coalesce(p.paid, 0) * 100)::bigint as paid,
           s.interest_apr::float8 / 100 / 12 as rate,
           coalesce(s.schedule_start_date, (s.created_at at time zone 'UTC')::date) as start_date
    from sales s left join paid p on p.sale_id = s.id
    where not ${SALE_PAID_SQL}
  ),
  schedules as (
    select paid, financed, n,
           case when n = 0 then financed::float8
                when coalesce(rate, 0) = 0 then financed::float8 / n
                else financed::float8 * rate / (1 - power(1 + rate, -n)) end as payment,
           (select count(*) from generate_series(0, greatest(n, 1) - 1) as k
             where (start_date + make_interval(months => k))::date <= $1::date) as due_count
    from open_sales
  )
  select coalesce(sum(greatest(0,
           case when due_count = 0 then 0
                when n = 0 then financed
                when due_count >= n then floor(payment * n + 0.5)
                else due_count * floor(payment + 0.5) end - paid)), 0)::bigint as cents
  from schedules`;

/**
 * `GET /api/dashboard/metrics` (docs/architecture.md "Dashboard metrics" defines each):
 * computed in SQL over the projection. `today` (YYYY-MM-DD) defaults to the server's date.
 */
export function dashboardRoutes(sql: Sql, cache: ReadCache) {
  const app = new Hono<AuthedEnv>();
  app.get('/dashboard/metrics', validate('query', query), async (c) => {
    const today = c.req.valid('query').today ?? new Date().toISOString().slice(0, 10);
    return cache.respond(c, `dashboard?${today}`, () => metrics(sql, today));
  });
  return app;
}

async function metrics(sql: Sql, today: string) {
  const [horses] = await sql<{ total: number; inventory: string }[]>`
    select count(*)::int as total,
           coalesce(sum(price_usd) filter (where not exists (select 1 from sales s where s.horse_id = h.id)), 0)::numeric(14, 2)::text as inventory
    from horses h`;
  const [sales] = await sql<{ active: number }[]>`
    select count(*)::int as active from sales s
    left join (select sale_id, sum(amount) as paid from payments group by sale_id) p on p.sale_id = s.id
    where not ${sql.unsafe(SALE_PAID_SQL)}`;
  const [pastDue] = await sql.unsafe<{ cents: string }[]>(PAST_DUE_SQL, [today]);
  const statuses = await sql<{ id: string; name: string }[]>`select id::text as id, name from statuses`;
  const counts = await sql<{ status_id: string | null; count: number }[]>`
    select status_id::text, count(*)::int as count from horses group by status_id`;
  const cents = Number(pastDue?.cents ?? 0);
  return {
    totalHorses: horses?.total ?? 0,
    inventoryValue: horses?.inventory ?? '0.00',
    activeSales: sales?.active ?? 0,
    pastDue: fromCents(cents),
    statusDistribution: statusDistribution(statuses, new Map(counts.map((row) => [row.status_id, row.count]))),
  };
}
