import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { newId, writeEntity } from '../../../../shared/index.ts';
import { openRanchDb, type RanchDb } from '../db.ts';
import { startProjection } from '../projection.ts';
import { allPayments, paymentsOfSales } from './read-payments.ts';
import { LEDGER_CURSOR_KEY, pullLedger, readLedgerCursor } from './pull.ts';

const HORSE = newId();
const BUYER = newId();
const createdAt = '2026-12-01T10:00:00.000Z';
const saleRecord = (salePrice = '1000.00') => ({
  horseId: HORSE,
  buyerId: BUYER,
  salePrice,
  downPayment: '0.00',
  termsMonths: 3,
  interestApr: null,
  scheduleStartDate: null,
  previousStatusId: null,
  createdAt,
});
const paymentRecord = (saleId: string, amount: string) => ({
  saleId,
  amount,
  date: '2026-12-02',
  method: 'Cash',
  memo: null,
  installmentId: null,
  createdAt,
});

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
  vi.restoreAllMocks();
});
let seq = 0;
function openDb(): RanchDb {
  const db = openRanchDb(`ledger-read-${++seq}`);
  cleanups.push(() => db.delete());
  return db;
}

type Served = { body: unknown; status?: number };
/** A fetch that answers GET /api/ledger with the given pages in turn, and records the URLs asked. */
function serve(pages: Served[]) {
  const asked: string[] = [];
  const fetch = vi.fn(async (url: string | URL | Request) => {
    asked.push(String(url));
    const page = pages.shift();
    if (!page) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(page.body), { status: page.status ?? 200 });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, asked };
}
const entry = (seqNo: number, id: string, collection: string, record: unknown, flags: unknown = []) => ({
  seq: String(seqNo),
  id,
  collection,
  record,
  recordedBy: null,
  receivedAt: createdAt,
  flags,
});
const page = (entries: unknown[], next: string, more = false) => ({ version: 1, entries, next, head: next, more });

describe('the ledger in the read database', () => {
  it('pulls pages from the cursor into sales, payments and corrections, with seq and flags, and keeps the cursor in meta', async () => {
    const db = openDb();
    const sale = newId();
    const pay = newId();
    const cancel = newId();
    const { fetch, asked } = serve([
      { body: page([entry(1, sale, 'sales', saleRecord('250'), ['horseAlreadySold', 'madeUp'])], '1', true) },
      {
        body: page(
          [
            entry(2, pay, 'payments', paymentRecord(sale, '50')),
            entry(3, newId(), 'careEntries', { horseId: HORSE }),
            entry(5, cancel, 'corrections', {
              kind: 'cancel',
              saleId: sale,
              paymentId: null,
              amount: null,
              date: null,
              method: null,
              reason: 'Withdrew',
              createdAt,
            }),
          ],
          '5',
        ),
      },
    ]);
    expect(await pullLedger(db, { fetch, url: 'http://ranch/api/ledger' })).toEqual({
      kind: 'pulled',
      cursor: '5',
      entries: 4,
      skipped: 0,
    });
    expect(asked).toEqual(['http://ranch/api/ledger?after=0&limit=1000', 'http://ranch/api/ledger?after=1&limit=1000']);
    // As the record schema reads it ("250" is "250.00"), the unknown flag left out.
    expect(await db.sales.get(sale)).toEqual({ id: sale, ...saleRecord('250.00'), ledgerSeq: 1, flags: ['horseAlreadySold'] });
    expect(await db.payments.where('saleId').equals(sale).toArray()).toEqual([
      { id: pay, ...paymentRecord(sale, '50.00'), ledgerSeq: 2, flags: [] },
    ]);
    expect((await db.corrections.get(cancel))?.ledgerSeq).toBe(5);
    expect(await db.meta.get(LEDGER_CURSOR_KEY)).toEqual({ key: LEDGER_CURSOR_KEY, value: '5' });

    // The next pull asks only for what came after.
    const next = serve([{ body: page([], '5') }]);
    await pullLedger(db, { fetch: next.fetch, url: '/api/ledger' });
    expect(next.asked).toEqual(['/api/ledger?after=5&limit=1000']);
  });

  it('treats the answer as untrusted: a page out of order or past the cursor is not written; an invalid entry is left out and passed', async () => {
    const db = openDb();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const sale = newId();
    const bad = [
      { body: page([entry(2, sale, 'sales', saleRecord()), entry(1, newId(), 'sales', saleRecord())], '2') },
      { body: page([entry(3, sale, 'sales', saleRecord())], '2') },
      { body: { ...page([], '1'), version: 2 } },
      { body: page([], 'x1') },
      { body: 'not a page' },
      { body: { message: 'Signed out' }, status: 401 },
    ];
    for (const served of bad) {
      expect(await pullLedger(db, serve([served])), JSON.stringify(served)).toEqual({ kind: 'offline' });
    }
    expect(await pullLedger(db, serve([]))).toEqual({ kind: 'offline' }); // the network is away
    expect(await db.sales.count()).toBe(0);
    expect(await readLedgerCursor(db)).toBe('0');

    const good = newId();
    const outcome = await pullLedger(
      db,
      serve([
        {
          body: page(
            [
              entry(1, sale, 'sales', { ...saleRecord(), salePrice: '-5' }),
              entry(2, 'not-an-id', 'sales', saleRecord()),
              entry(3, newId(), 'sales', { ...saleRecord(), stray: 1 }),
              entry(4, newId(), 'horses', { name: 'Comet' }),
              entry(5, good, 'sales', saleRecord()),
            ],
            '5',
          ),
        },
      ]),
    );
    expect(outcome).toEqual({ kind: 'pulled', cursor: '5', entries: 5, skipped: 4 });
    expect((await db.sales.toArray()).map((row) => row.id)).toEqual([good]);
    expect(warn).toHaveBeenCalled();
  });

  it('never lets the projection from the document overwrite or delete a ledger row; document-only rows follow the document', async () => {
    const db = openDb();
    const doc = new Y.Doc();
    const fromLedger = newId();
    const onlyInDocument = newId();
    // The same sale in the document (an old-layout copy, another price) and in the ledger; another only in the document.
    writeEntity(doc, 'sales', fromLedger, saleRecord('999.00'));
    writeEntity(doc, 'sales', onlyInDocument, saleRecord('10.00'));
    writeEntity(doc, 'payments', newId(), paymentRecord(onlyInDocument, '5.00'));
    await pullLedger(db, serve([{ body: page([entry(1, fromLedger, 'sales', saleRecord('1000.00'))], '1') }]));
    const projection = startProjection(doc, db, Promise.resolve());
    cleanups.push(() => projection.stop());
    await projection.idle();
    expect((await db.sales.get(fromLedger))?.salePrice).toBe('1000.00');
    expect((await db.sales.get(onlyInDocument))?.salePrice).toBe('10.00');

    // The document drops both (layout 3 holds no sales) and edits: the ledger's row stays, the other goes.
    doc.transact(() => {
      doc.getMap('sales').delete(fromLedger);
      doc.getMap('sales').delete(onlyInDocument);
    });
    await projection.idle();
    expect((await db.sales.get(fromLedger))?.ledgerSeq).toBe(1);
    expect(await db.sales.get(onlyInDocument)).toBeUndefined();

    // A whole reconcile (a start) compares, and leaves it too; so does a direct put or delete without ledgerSeq.
    const again = startProjection(doc, db, Promise.resolve());
    cleanups.push(() => again.stop());
    await again.idle();
    await db.sales.bulkPut([{ id: fromLedger, ...saleRecord('1.00') } as never]);
    await db.sales.delete(fromLedger);
    expect((await db.sales.get(fromLedger))?.salePrice).toBe('1000.00');
  });

  it('reads payments from both tables, a payment in both once, as the ledger has it', async () => {
    const db = openDb();
    const sale = newId();
    const both = newId();
    const documentOnly = newId();
    await db.salePayments.put({
      saleId: sale,
      payments: [
        { id: both, ...paymentRecord(sale, '1.00') },
        { id: documentOnly, ...paymentRecord(sale, '2.00') },
      ] as never,
    });
    await db.payments.put({ id: both, ...paymentRecord(sale, '3.00'), ledgerSeq: 1, flags: [] } as never);
    const amounts = (payments: { amount: string }[]) => payments.map((payment) => payment.amount).sort();
    expect(amounts(await paymentsOfSales(db, [sale]))).toEqual(['2.00', '3.00']);
    expect(amounts(await allPayments(db))).toEqual(['2.00', '3.00']);
    expect(amounts(await allPayments(db, true))).toEqual(['2.00', '3.00']);
  });
});
