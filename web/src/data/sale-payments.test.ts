import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { collectionMap, deleteEntity, readRecord, writeEntity } from '../../../shared/index.ts';
import { openRanchDb, type RanchDb } from './db.ts';
import { startProjection } from './projection.ts';
import { applyFromOtherDevice } from '../../test/ranch-data.ts';

const SALES = ['0190a000-0000-7000-8000-0000000000c1', '0190a000-0000-7000-8000-0000000000c2', '0190a000-0000-7000-8000-0000000000c3'];
const paymentId = (n: number) => `0190a000-0000-7000-8000-0000000002${String(n).padStart(2, '0')}`;

type Step =
  | { op: 'write'; payment: number; sale: number | null; amount: number; remote: boolean }
  | { op: 'delete'; payment: number; remote: boolean }
  | { op: 'settle' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('write' as const),
      payment: fc.nat(11),
      sale: fc.option(fc.nat(2), { freq: 8 }),
      amount: fc.nat(999),
      remote: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), payment: fc.nat(11), remote: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ op: 'settle' as const }) },
);

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What `salePayments` must hold: the document's valid payments (no sale or an amount of 0
 * is not valid) grouped by sale, in id order.
 */
function expectedRows(doc: Y.Doc): { saleId: string; payments: Record<string, unknown>[] }[] {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const [key, entity] of collectionMap(doc, 'payments').entries()) {
    const reading = readRecord('payments', key, entity);
    if (!reading.valid) continue;
    const saleId = reading.record.saleId as string;
    groups.set(saleId, [...(groups.get(saleId) ?? []), reading.record]);
  }
  return [...groups]
    .map(([saleId, payments]) => ({ saleId, payments: payments.sort((a, b) => byCodeUnits(String(a.id), String(b.id))) }))
    .sort((a, b) => byCodeUnits(a.saleId, b.saleId));
}

const opened: RanchDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

describe('payments by sale in the read model', () => {
  it('after any mix of local and remote writes, moves and deletes, the rows are the valid payments of the document grouped by sale', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const doc = new Y.Doc();
        const db = openRanchDb(`sale-payments-${++run}`);
        opened.push(db);
        const projection = startProjection(doc, db, Promise.resolve());
        try {
          await projection.ready;
          for (const s of steps) {
            if (s.op === 'settle') {
              await projection.idle();
              continue;
            }
            const change = (target: Y.Doc) =>
              target.transact(() => {
                if (s.op === 'delete') deleteEntity(target, 'payments', paymentId(s.payment));
                else
                  writeEntity(target, 'payments', paymentId(s.payment), {
                    saleId: s.sale === null ? null : SALES[s.sale]!,
                    amount: `${s.amount}.00`,
                    date: '2024-03-01',
                    method: 'Cash',
                    createdAt: '2024-03-01T10:00:00.000Z',
                  });
              });
            if (s.remote) applyFromOtherDevice(doc, change);
            else change(doc);
          }
          await projection.idle();
          expect(await db.salePayments.orderBy(':id').toArray()).toEqual(expectedRows(doc));
        } finally {
          projection.stop();
          doc.destroy();
        }
      }),
      { numRuns: 40 },
    );
  });
});
