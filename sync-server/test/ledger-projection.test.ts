import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/index.ts';
import { createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';
import { saleRecord } from './support/sale-record.ts';

const createdAt = '2026-12-01T10:00:00.000Z';
const today = '2026-12-07';

type Sale = {
  id: string;
  horseId: string;
  buyerId: string;
  status: string;
  paid: string;
  balance: string;
  refunded: string;
  credit: string;
};
type Payment = { id: string; saleId: string; amount: string; voided: boolean };
type Metrics = { activeSales: number; pending: string };

/**
 * Issue 68 (S1): every ledger commit writes the projection tables of sales, payments and
 * corrections in its transaction, so REST's reads, the dashboard and sale standing show
 * what devices record in the ledger.
 */
describe.each(databaseKinds())('the projection of ledger entries (%s)', (kind) => {
  let ranch: StaffRanch;
  let staff: ApiClient;
  let buyerId = '';

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    staff = ranch.staff;
    buyerId = await createdId(staff, '/api/buyers', { firstName: 'Lee', lastName: 'Ledger' });
  });
  afterAll(() => ranch.server.destroy());

  const horse = (name: string) => {
    const { breed: breedId, color: colorId, gender: genderId } = ranch.lookups;
    return createdId(staff, '/api/horses', { name, breedId, colorId, genderId });
  };
  const push = async (entries: unknown[]) => {
    const response = await staff.request('/api/ledger', { method: 'POST', json: { entries } });
    expect(response.status).toBe(200);
    const { results } = (await response.json()) as { results: { outcome: string }[] };
    expect(results.map((result) => result.outcome)).toEqual(entries.map(() => 'recorded'));
  };
  const read = async <T>(path: string): Promise<T> => {
    const response = await staff.request(path);
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const sale = (horseId: string, salePrice: string) => ({
    id: newId(),
    collection: 'sales',
    record: saleRecord({ horseId, buyerId, salePrice, createdAt }),
  });
  const payment = (saleId: string, amount: string) => ({
    id: newId(),
    collection: 'payments',
    record: { saleId, amount, date: '2026-12-02', method: 'Cash', memo: null, installmentId: null, createdAt },
  });
  const correction = (kind: 'void' | 'cancel' | 'refund', saleId: string, fields: Record<string, unknown> = {}) => ({
    id: newId(),
    collection: 'corrections',
    record: { kind, saleId, paymentId: null, amount: null, date: null, method: null, reason: 'Testing', createdAt, ...fields },
  });

  it('shows ledger sales, payments and corrections in the sales, payments and corrections lists, with their standing', async () => {
    const sold = sale(await horse('Projected'), '1000');
    const voided = payment(sold.id, '250');
    const kept = payment(sold.id, '100');
    const voiding = correction('void', sold.id, { paymentId: voided.id });
    await push([sold, voided, kept, voiding]);

    const sales = await read<Sale[]>(`/api/sales?today=${today}`);
    expect(sales.find((row) => row.id === sold.id)).toMatchObject({
      horseId: sold.record.horseId,
      buyerId,
      status: 'Open',
      paid: '100.00',
      balance: '900.00',
    });
    const payments = await read<Payment[]>('/api/payments');
    expect(payments.filter((row) => row.saleId === sold.id).map(({ id, amount, voided }) => ({ id, amount, voided }))).toEqual(
      expect.arrayContaining([
        { id: voided.id, amount: '250.00', voided: true },
        { id: kept.id, amount: '100.00', voided: false },
      ]),
    );
    const corrections = await read<{ id: string; kind: string; paymentId: string | null }[]>('/api/corrections');
    expect(corrections.find((row) => row.id === voiding.id)).toMatchObject({ kind: 'void', paymentId: voided.id });
  });

  it('brings the dashboard up to date at once after a push, though the document did not change', async () => {
    const before = await read<Metrics>(`/api/dashboard/metrics?today=${today}`);
    const sold = sale(await horse('Dashboard'), '600');
    // The horse's creation and its Sold status are document changes: read the dashboard after them.
    await push([sold]);
    const afterSale = await read<Metrics>(`/api/dashboard/metrics?today=${today}`);
    expect(afterSale.activeSales).toBe(before.activeSales + 1);
    expect(Number(afterSale.pending)).toBeCloseTo(Number(before.pending) + 600, 2);

    // A payment alone changes only the ledger: the dashboard read before it must not be answered again.
    await push([payment(sold.id, '200')]);
    const afterPayment = await read<Metrics>(`/api/dashboard/metrics?today=${today}`);
    expect(Number(afterPayment.pending)).toBeCloseTo(Number(afterSale.pending) - 200, 2);
  });

  it('shows a cancelled ledger sale as cancelled, its payment held as credit, and a refund of it', async () => {
    const sold = sale(await horse('Cancelled'), '800');
    const paid = payment(sold.id, '300');
    await push([sold, paid, correction('cancel', sold.id)]);
    let row = (await read<Sale[]>(`/api/sales?today=${today}`)).find((found) => found.id === sold.id);
    expect(row).toMatchObject({ status: 'Cancelled', credit: '300.00' });

    await push([correction('refund', sold.id, { amount: '300', date: '2026-12-03', method: 'Cash' })]);
    row = (await read<Sale[]>(`/api/sales?today=${today}`)).find((found) => found.id === sold.id);
    expect(row).toMatchObject({ status: 'Cancelled', refunded: '300.00', credit: '0.00' });
  });

  it('writes a row once: an entry pushed again changes nothing in the lists', async () => {
    const sold = sale(await horse('Twice'), '500');
    const paid = payment(sold.id, '50');
    await push([sold, paid]);
    const response = await staff.request('/api/ledger', { method: 'POST', json: { entries: [sold, paid] } });
    expect(((await response.json()) as { results: { outcome: string }[] }).results.map((r) => r.outcome)).toEqual([
      'duplicate',
      'duplicate',
    ]);
    expect((await read<Sale[]>('/api/sales')).filter((row) => row.id === sold.id)).toHaveLength(1);
    expect((await read<Payment[]>('/api/payments')).filter((row) => row.saleId === sold.id)).toHaveLength(1);
  });
});
