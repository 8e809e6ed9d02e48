import { Hono } from 'hono';
import type { Sql } from '../db/client.ts';
import { apiError } from '../http/errors.ts';
import type { AuthedEnv } from '../http/types.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { selectList } from '../sync/tables.ts';
import type * as Y from 'yjs';
import { z } from 'zod';
import {
  findSoldStatus,
  getEntity,
  isoDate,
  newId,
  overpaymentMessage,
  paymentInput,
  saleInput,
  saleStanding,
  toCents,
} from '../../../shared/index.ts';
import { requireWriter } from '../auth/middleware.ts';
import { validate } from '../http/validate.ts';
import { recordThroughLedger } from './ledger-writes.ts';
import { saleMoney, storedSales, withStanding } from './sale-standing.ts';
import { checkReferences } from './entity-writes.ts';

/** [S4] A recorded sale of the horse that no cancellation names, from the ledger's tables. */
async function standingSaleOf(sql: Sql, horseId: string): Promise<string | undefined> {
  const [sale] = await sql<{ id: string }[]>`
    select s.id::text from sales s
    where s.horse_id = ${horseId} and not exists (select 1 from corrections c where c.kind = 'cancel' and c.sale_id = s.id)
    limit 1`;
  return sale?.id;
}

/** [S18] The status the horse has before its sale marks it Sold (null when it is Sold already). */
function statusBeforeSale(doc: Y.Doc, horseId: string): string | null {
  const statusId = getEntity(doc, 'horses', horseId)?.statusId;
  return typeof statusId === 'string' && statusId !== findSoldStatus(doc) ? statusId : null;
}

export function saleRoutes(sql: Sql, registry: DocumentRegistry) {
  const app = new Hono<AuthedEnv>();

  // [S16] `today` (YYYY-MM-DD) for the standing and what is past due: the server's UTC date by default.
  app.get('/sales', validate('query', z.object({ today: isoDate.optional() })), async (c) => {
    const today = c.req.valid('query').today ?? new Date().toISOString().slice(0, 10);
    const [sales, money] = await Promise.all([storedSales(sql), saleMoney(sql)]);
    return c.json(sales.map((sale) => withStanding(sale, money.get(sale.id), today)));
  });
  // [S18] Recording a sale marks its horse Sold (the status made on first need) and keeps the
  // status it had; a horse is sold once while its sale stands (409 otherwise).
  app.post('/sales', requireWriter, validate('json', saleInput), async (c) => {
    const input = c.req.valid('json');
    const sale = await recordThroughLedger(sql, registry, c.get('user').id, 'sales', async (doc) => {
      checkReferences(doc, 'sales', input);
      if (await standingSaleOf(sql, input.horseId)) throw apiError(409, 'This horse is already sold');
      return { id: newId(), ...input, previousStatusId: statusBeforeSale(doc, input.horseId), createdAt: new Date().toISOString() };
    });
    return c.json(sale, 201);
  });

  app.get('/payments', async (c) => {
    const rows = await sql`
      select ${sql.unsafe(selectList('payments', 'p'))},
        exists (select 1 from corrections v where v.kind = 'void' and v.payment_id = p.id) as voided
      from payments p order by p.date desc, p.created_at desc, p.id`;
    return c.json(rows);
  });

  // Payments are append-only: create only. Only an Open sale takes one, and no more than its
  // balance ([P8]; 409 with the balance otherwise).
  app.post('/payments', requireWriter, validate('json', paymentInput), async (c) => {
    const input = c.req.valid('json');
    const payment = await recordThroughLedger(sql, registry, c.get('user').id, 'payments', async () => {
      const [[sale], money] = await Promise.all([storedSales(sql, input.saleId), saleMoney(sql, input.saleId)]);
      if (!sale) throw apiError(400, 'saleId: no such sale', [{ path: 'saleId', message: 'Unknown id' }]);
      const standing = saleStanding(sale, money.get(sale.id) ?? 0);
      if (standing.status === 'Cancelled') throw apiError(409, 'This sale is cancelled and takes no payments');
      const refused = overpaymentMessage(toCents(input.amount), standing.balanceCents);
      if (refused) throw apiError(409, refused);
      return { id: newId(), ...input, createdAt: new Date().toISOString() };
    });
    return c.json(payment, 201);
  });

  return app;
}
