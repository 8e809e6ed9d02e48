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
  getEntity,
  newId,
  refundInput,
  refundMessage,
  restoreHorseStatus,
  saleStanding,
  toCents,
  voidInput,
  writeEntity,
  type EntityFields,
} from '../../../shared/index.ts';
import { writeThroughDoc } from './doc-writes.ts';
import { requireEntity } from './entity-writes.ts';
import { saleMoney, storedSales } from './sale-standing.ts';

/**
 * [P10]–[P12] [S17] Corrections over REST: each a new create-only record in `corrections`
 * naming what it corrects, written through the document like a device's. Staff and Admins,
 * as for payments. The socket keeps the same records create-only (docs/sync-rules.md).
 */
export function correctionRoutes(sql: Sql, registry: DocumentRegistry) {
  const app = new Hono<AuthedEnv>();

  app.get('/corrections', async (c) => {
    const rows = await sql`select ${sql.unsafe(selectList('corrections'))} from corrections order by created_at desc, id`;
    return c.json(rows);
  });

  const stamped = (fields: Omit<EntityFields, 'createdAt'>) => ({ id: newId(), ...fields, createdAt: new Date().toISOString() });

  // [P10] Void a payment: it counts nowhere after this.
  app.post('/payments/:id/void', requireWriter, validate('param', entityIdParam), validate('json', voidInput), async (c) => {
    const { id } = c.req.valid('param');
    const { reason } = c.req.valid('json');
    let correction: EntityFields = {};
    const refuseTwice = async () => {
      const [voided] = await sql`select 1 from corrections where kind = 'void' and payment_id = ${id} limit 1`;
      if (voided) throw apiError(409, 'This payment is already void');
    };
    await writeThroughDoc(
      registry,
      c.get('user').id,
      (doc) => {
        requireEntity(doc, 'payments', id);
        const saleId = String(getEntity(doc, 'payments', id)?.saleId);
        correction = stamped({ kind: 'void', saleId, paymentId: id, amount: null, date: null, method: null, reason });
        writeEntity(doc, 'corrections', String(correction.id), correction);
      },
      refuseTwice,
    );
    return c.json(correction, 201);
  });

  // [S17] Cancel a sale.
  app.post('/sales/:id/cancel', requireWriter, validate('param', entityIdParam), validate('json', cancelInput), async (c) => {
    const { id } = c.req.valid('param');
    const { reason } = c.req.valid('json');
    const correction = stamped({ kind: 'cancel', saleId: id, paymentId: null, amount: null, date: null, method: null, reason });
    const refuseTwice = async () => {
      if ((await saleMoney(sql, id)).get(id)?.cancelled) throw apiError(409, 'This sale is already cancelled');
    };
    await writeThroughDoc(
      registry,
      c.get('user').id,
      (doc) => {
        requireEntity(doc, 'sales', id);
        writeEntity(doc, 'corrections', String(correction.id), correction);
        restoreHorseStatus(doc, id);
      },
      refuseTwice,
    );
    return c.json(correction, 201);
  });

  // [P11] Refund what is held for the buyer.
  app.post('/sales/:id/refunds', requireWriter, validate('param', entityIdParam), validate('json', refundInput), async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    const correction = stamped({ kind: 'refund', saleId: id, paymentId: null, ...input });
    const refuseBeyondCredit = async () => {
      const [[sale], money] = await Promise.all([storedSales(sql, id), saleMoney(sql, id)]);
      if (!sale) return; // 404 from the change
      const refused = refundMessage(toCents(input.amount), saleStanding(sale, money.get(id) ?? 0).creditCents);
      if (refused) throw apiError(409, refused);
    };
    await writeThroughDoc(
      registry,
      c.get('user').id,
      (doc) => {
        requireEntity(doc, 'sales', id);
        writeEntity(doc, 'corrections', String(correction.id), correction);
      },
      refuseBeyondCredit,
    );
    return c.json(correction, 201);
  });

  return app;
}
