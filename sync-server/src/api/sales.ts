import { Hono } from 'hono';
import type { Sql } from '../db/client.ts';
import { apiError } from '../http/errors.ts';
import type { AuthedEnv } from '../http/types.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { selectList } from '../sync/tables.ts';
import { newId, paymentInput, saleInput, writeEntity, type EntityFields } from '../../../shared/index.ts';
import { requireWriter } from '../auth/middleware.ts';
import { validate } from '../http/validate.ts';
import { writeThroughDoc } from './doc-writes.ts';
import { SALE_PAID_SQL } from './sale-sql.ts';
import { checkReferences } from './entity-writes.ts';
import { entityWriteRoutes } from './entity-routes.ts';

/**
 * SQL for a sale's derived status, as shared/sales.ts saleStatus: Paid once the payments cover
 * every installment, interest included (`s` a sale, `p.paid` the sum of its payments).
 */
export const SALE_STATUS_SQL = `case when ${SALE_PAID_SQL} then 'Paid' else 'Open' end`;
const PAID_BY_SALE = `(select sale_id, sum(amount) as paid from payments group by sale_id)`;

export function saleRoutes(sql: Sql, registry: DocumentRegistry) {
  const app = new Hono<AuthedEnv>();

  app.get('/sales', async (c) => {
    const rows = await sql`
      select ${sql.unsafe(selectList('sales', 's'))}, ${sql.unsafe(SALE_STATUS_SQL)} as status
      from sales s left join ${sql.unsafe(PAID_BY_SALE)} p on p.sale_id = s.id
      order by s.created_at desc, s.id`;
    return c.json(rows);
  });
  app.route('/', entityWriteRoutes(registry, { collection: 'sales', schema: saleInput, stamped: true }));

  app.get('/payments', async (c) => {
    const rows = await sql`
      select ${sql.unsafe(selectList('payments'))} from payments order by date desc, created_at desc, id`;
    return c.json(rows);
  });

  // Payments are append-only: create only. Only an Open sale takes one (409 otherwise).
  app.post('/payments', requireWriter, validate('json', paymentInput), async (c) => {
    const input = c.req.valid('json');
    const payment = { id: newId(), ...input, createdAt: new Date().toISOString() } satisfies EntityFields;
    const refuseUnlessOpen = async () => {
      const [sale] = await sql<{ status: string }[]>`
        select ${sql.unsafe(SALE_STATUS_SQL)} as status
        from sales s left join ${sql.unsafe(PAID_BY_SALE)} p on p.sale_id = s.id
        where s.id = ${input.saleId}`;
      if (sale?.status === 'Paid') throw apiError(409, 'This sale is paid in full and takes no more payments');
    };
    await writeThroughDoc(
      registry,
      c.get('user').id,
      (doc) => {
        checkReferences(doc, 'payments', payment);
        writeEntity(doc, 'payments', payment.id, payment);
      },
      refuseUnlessOpen,
    );
    return c.json(payment, 201);
  });

  return app;
}
