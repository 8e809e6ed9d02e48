/**
 * SQL mirrors of shared/sales.ts over the projection (`s` a sale row), step by step: float8
 * like JavaScript numbers, floor(x + 0.5) like Math.round. dashboard.test.ts and rest.test.ts
 * check them against the shared functions.
 */

/** The amount financed, in cents (installmentSchedule's `financed`). */
const FINANCED_CENTS = `((s.sale_price - s.down_payment) * 100)::bigint`;
/** The monthly rate (installmentSchedule's `rate`); 0 without interest. */
const RATE = `coalesce(s.interest_apr, 0)::float8 / 100 / 12`;

/** What the installments add up to, interest included (shared financedTotalCents). */
export const FINANCED_TOTAL_CENTS_SQL = `(case
  when ${FINANCED_CENTS} <= 0 then 0
  when s.terms_months = 0 or ${RATE} = 0 then ${FINANCED_CENTS}
  else floor(${FINANCED_CENTS}::float8 * (${RATE}) / (1 - power(1 + (${RATE}), -s.terms_months)) * s.terms_months + 0.5)::bigint
end)`;

/** Whether a sale is paid (shared saleStatus): `p.paid`, the sum of its payments, covers the installments. */
export const SALE_PAID_SQL = `(coalesce(p.paid, 0) * 100)::bigint >= ${FINANCED_TOTAL_CENTS_SQL}`;
