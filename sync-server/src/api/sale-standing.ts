import type { Sql } from '../db/client.ts';
import { selectList } from '../sync/tables.ts';
import {
  fromCents,
  keptCents,
  pastDueCents,
  saleStanding,
  saleStandingLabel,
  toCents,
  type SaleMoney,
  type StoredSale,
} from '../../../shared/index.ts';

/**
 * Sales as REST shows them: the projection's rows with the standing the devices compute
 * (shared saleStanding), never a second computation in SQL. Postgres only sums the payments.
 */

/**
 * Each sale's money (or `saleId`'s alone) as the shared `saleMoneyBySale` makes it on devices,
 * summed exactly in numeric: payments no void names, refunds, and whether a cancellation names
 * the sale ([P10]–[P12], [S17]).
 */
export async function saleMoney(sql: Sql, saleId?: string): Promise<Map<string, SaleMoney>> {
  const rows = await sql<{ saleId: string; paid: string | null; refunded: string | null; cancelled: boolean }[]>`
    with paid as (
      select p.sale_id, sum(p.amount) as paid from payments p
      where not exists (select 1 from corrections v where v.kind = 'void' and v.payment_id = p.id)
      ${saleId === undefined ? sql`` : sql`and p.sale_id = ${saleId}`}
      group by p.sale_id
    ), corrected as (
      select sale_id, sum(amount) filter (where kind = 'refund') as refunded, bool_or(kind = 'cancel') as cancelled
      from corrections ${saleId === undefined ? sql`` : sql`where sale_id = ${saleId}`}
      group by sale_id
    )
    select coalesce(paid.sale_id, corrected.sale_id)::text as "saleId", paid.paid::text as paid,
      corrected.refunded::text as refunded, coalesce(corrected.cancelled, false) as cancelled
    from paid full join corrected on corrected.sale_id = paid.sale_id`;
  return new Map(
    rows.map((row) => [
      row.saleId,
      { paidCents: row.paid ? toCents(row.paid) : 0, refundedCents: row.refunded ? toCents(row.refunded) : 0, cancelled: row.cancelled },
    ]),
  );
}

/** The projection's sales (or the one `saleId`), newest first. */
export async function storedSales(sql: Sql, saleId?: string): Promise<StoredSale[]> {
  return sql<StoredSale[]>`
    select ${sql.unsafe(selectList('sales', 's'))} from sales s
    ${saleId === undefined ? sql`` : sql`where s.id = ${saleId}`}
    order by s.created_at desc, s.id`;
}

/**
 * A sale with its `status` (Paid, Open or Cancelled), `paid` (after the down payment, payments
 * not void), `refunded`, `balance` (interest included) and `credit` (held for the buyer, [P8])
 * as decimal strings; on `today` (YYYY-MM-DD) its `standing` ('Paid', 'Open', 'Past due', [S16],
 * or 'Cancelled', [S17]) and `pastDue` ([S10]).
 */
export function withStanding(sale: StoredSale, money: SaleMoney | undefined, today: string) {
  const standing = saleStanding(sale, money ?? 0);
  const kept = keptCents(money);
  const cancelled = standing.status === 'Cancelled';
  return {
    ...sale,
    status: standing.status,
    paid: fromCents(standing.paidCents),
    refunded: fromCents(standing.refundedCents),
    balance: fromCents(standing.balanceCents),
    credit: fromCents(standing.creditCents),
    standing: cancelled ? 'Cancelled' : saleStandingLabel(sale, kept, today),
    pastDue: fromCents(cancelled ? 0 : pastDueCents(sale, kept, today)),
  };
}
