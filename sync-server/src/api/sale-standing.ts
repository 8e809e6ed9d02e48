import type { Sql } from '../db/client.ts';
import { selectList } from '../sync/tables.ts';
import { fromCents, pastDueCents, saleStanding, saleStandingLabel, toCents, type StoredSale } from '../../../shared/index.ts';

/**
 * Sales as REST shows them: the projection's rows with the standing the devices compute
 * (shared saleStanding), never a second computation in SQL. Postgres only sums the payments.
 */

/** What was paid on each sale (or on `saleId` alone), in cents, summed exactly in numeric. */
export async function paidCents(sql: Sql, saleId?: string): Promise<Map<string, number>> {
  const rows = await sql<{ saleId: string; paid: string }[]>`
    select sale_id::text as "saleId", sum(amount)::text as paid from payments
    ${saleId === undefined ? sql`` : sql`where sale_id = ${saleId}`}
    group by sale_id`;
  return new Map(rows.map((row) => [row.saleId, toCents(row.paid)]));
}

/** The projection's sales (or the one `saleId`), newest first. */
export async function storedSales(sql: Sql, saleId?: string): Promise<StoredSale[]> {
  return sql<StoredSale[]>`
    select ${sql.unsafe(selectList('sales', 's'))} from sales s
    ${saleId === undefined ? sql`` : sql`where s.id = ${saleId}`}
    order by s.created_at desc, s.id`;
}

/**
 * A sale with its `status`, `paid` (after the down payment), `balance` (interest included) and
 * `credit` (paid beyond what is owed, [P8]) as decimal strings; on `today` (YYYY-MM-DD) its
 * `standing` ('Paid', 'Open' or 'Past due', [S16]) and `pastDue` ([S10]).
 */
export function withStanding(sale: StoredSale, paid: number, today: string) {
  const { status, paidCents: paidSum, balanceCents, creditCents } = saleStanding(sale, paid);
  return {
    ...sale,
    status,
    paid: fromCents(paidSum),
    balance: fromCents(balanceCents),
    credit: fromCents(creditCents),
    standing: saleStandingLabel(sale, paid, today),
    pastDue: fromCents(pastDueCents(sale, paid, today)),
  };
}
