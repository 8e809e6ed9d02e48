import { Hono } from 'hono';
import type { Sql } from '../db/client.ts';
import { requireWriter } from '../auth/middleware.ts';
import { apiError } from '../http/errors.ts';
import { entityIdParam } from '../http/params.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { selectList } from '../sync/tables.ts';
import {
  cancelInput,
  newId,
  refundInput,
  refundMessage,
  saleStanding,
  toCents,
  voidInput,
  type EntityFields,
} from '../../../shared/index.ts';
import { recordThroughLedger } from './ledger-writes.ts';
import { saleMoney, storedSales } from './sale-standing.ts';

/**
 * [P10]–[P12] [S17] Corrections over REST: each a ledger entry naming what it corrects, pushed
 * like a device's (ledger-writes.ts). Staff and Admins, as for payments.
 */
export function correctionRoutes(sql: Sql, registry: DocumentRegistry) {
  const app = new Hono<AuthedEnv>();

  app.get('/corrections', async (c) => {
    const rows = await sql`select ${sql.unsafe(selectList('corrections'))} from corrections order by created_at desc, id`;
    return c.json(rows);
  });

  const stamped = (fields: Omit<EntityFields, 'createdAt'>) => ({ id: newId(), ...fields, createdAt: new Date().toISOString() });
  /** 404 unless the ledger holds the sale. */
  const requireSale = async (id: string) => {
    const [sale] = await storedSales(sql, id);
    if (!sale) throw apiError(404, 'No such sale');
    return sale;
  };

  // [P10] Void a payment: it counts nowhere after this.
  app.post('/payments/:id/void', requireWriter, validate('param', entityIdParam), validate('json', voidInput), async (c) => {
    const { id } = c.req.valid('param');
    const { reason } = c.req.valid('json');
    const correction = await recordThroughLedger(sql, registry, c.get('user').id, 'corrections', async () => {
      const [payment] = await sql<{ saleId: string; voided: boolean }[]>`
        select sale_id::text as "saleId",
          exists (select 1 from corrections v where v.kind = 'void' and v.payment_id = p.id) as voided
        from payments p where p.id = ${id}`;
      if (!payment) throw apiError(404, 'No such payment');
      if (payment.voided) throw apiError(409, 'This payment is already void');
      return stamped({ kind: 'void', saleId: payment.saleId, paymentId: id, amount: null, date: null, method: null, reason });
    });
    return c.json(correction, 201);
  });

  // [S17] Cancel a sale; its horse gets back the status it had ([S18], the ledger's document effect).
  app.post('/sales/:id/cancel', requireWriter, validate('param', entityIdParam), validate('json', cancelInput), async (c) => {
    const { id } = c.req.valid('param');
    const { reason } = c.req.valid('json');
    const correction = await recordThroughLedger(sql, registry, c.get('user').id, 'corrections', async () => {
      await requireSale(id);
      if ((await saleMoney(sql, id)).get(id)?.cancelled) throw apiError(409, 'This sale is already cancelled');
      return stamped({ kind: 'cancel', saleId: id, paymentId: null, amount: null, date: null, method: null, reason });
    });
    return c.json(correction, 201);
  });

  // [P11] Refund what is held for the buyer.
  app.post('/sales/:id/refunds', requireWriter, validate('param', entityIdParam), validate('json', refundInput), async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    const correction = await recordThroughLedger(sql, registry, c.get('user').id, 'corrections', async () => {
      const [sale, money] = await Promise.all([requireSale(id), saleMoney(sql, id)]);
      const refused = refundMessage(toCents(input.amount), saleStanding(sale, money.get(id) ?? 0).creditCents);
      if (refused) throw apiError(409, refused);
      return stamped({ kind: 'refund', saleId: id, paymentId: null, ...input });
    });
    return c.json(correction, 201);
  });

  return app;
}
