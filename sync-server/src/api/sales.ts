import { Hono } from 'hono';
import type { Sql } from '../db/client.ts';
import { apiError } from '../http/errors.ts';
import type { AuthedEnv } from '../http/types.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { selectList } from '../sync/tables.ts';
import * as Y from 'yjs';
import { z } from 'zod';
import {
  collectionMap,
  isoDate,
  markHorseSold,
  newId,
  overpaymentMessage,
  paymentInput,
  saleInput,
  saleStanding,
  toCents,
  writeEntity,
  type EntityFields,
} from '../../../shared/index.ts';
import { requireWriter } from '../auth/middleware.ts';
import { validate } from '../http/validate.ts';
import { writeThroughDoc } from './doc-writes.ts';
import { saleMoney, storedSales, withStanding } from './sale-standing.ts';
import { checkReferences } from './entity-writes.ts';

/** A sale of the horse that no cancellation names ([S18]), read from the document the change is made in. */
function standingSaleOf(doc: Y.Doc, horseId: string): string | undefined {
  const cancelled = new Set<unknown>();
  for (const correction of collectionMap(doc, 'corrections').values()) {
    if (correction instanceof Y.Map && correction.get('kind') === 'cancel') cancelled.add(correction.get('saleId'));
  }
  for (const [saleId, sale] of collectionMap(doc, 'sales').entries()) {
    if (sale instanceof Y.Map && sale.get('horseId') === horseId && !cancelled.has(saleId)) return saleId;
  }
  return undefined;
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
    const id = newId();
    let sale: EntityFields = {};
    await writeThroughDoc(registry, c.get('user').id, (doc) => {
      checkReferences(doc, 'sales', input);
      if (standingSaleOf(doc, input.horseId)) throw apiError(409, 'This horse is already sold');
      const previousStatusId = markHorseSold(doc, input.horseId);
      sale = { id, ...input, previousStatusId, createdAt: new Date().toISOString() };
      writeEntity(doc, 'sales', id, sale);
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
    const payment = { id: newId(), ...input, createdAt: new Date().toISOString() } satisfies EntityFields;
    const refuseUnlessOpen = async () => {
      const [[sale], money] = await Promise.all([storedSales(sql, input.saleId), saleMoney(sql, input.saleId)]);
      if (!sale) return;
      const standing = saleStanding(sale, money.get(sale.id) ?? 0);
      if (standing.status === 'Cancelled') throw apiError(409, 'This sale is cancelled and takes no payments');
      const refused = overpaymentMessage(toCents(input.amount), standing.balanceCents);
      if (refused) throw apiError(409, refused);
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
