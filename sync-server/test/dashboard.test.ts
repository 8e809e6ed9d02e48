import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { fromCents, pastDueCents, ranchFigures, saleStatus, toCents, type Payment, type StoredSale } from '../../shared/index.ts';

describe.each(databaseKinds())('dashboard metrics (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;

  async function create(path: string, body: unknown): Promise<Record<string, string>> {
    const response = await admin.request(path, { method: 'POST', json: body });
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  }
  const metrics = async (today: string) => (await admin.request(`/api/dashboard/metrics?today=${today}`)).json();

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => server.destroy());

  it('[D9] is all zero for an empty ranch', async () => {
    expect(await metrics('2026-06-01')).toEqual({
      totalHorses: 0,
      inventoryValue: '0.00',
      activeSales: 0,
      pastDue: '0.00',
      statusDistribution: [],
      horsesAddedThisMonth: 0,
      inventoryValueLastMonth: '0.00',
      pending: '0.00',
      accountsPastDue: 0,
      ageing: { current: '0.00', days1to30: '0.00', days31to60: '0.00', days61to90: '0.00', over90: '0.00' },
    });
  });

  it('[D9] [D3] counts horses, unsold inventory, open sales, past due and statuses like the devices do', async () => {
    const breed = (await create('/api/breeds', { name: 'Paint' })).id;
    const color = (await create('/api/colors', { name: 'Pinto' })).id;
    const gender = (await create('/api/genders', { name: 'Mare' })).id;
    const forSale = (await create('/api/statuses', { name: 'For Sale' })).id;
    const training = (await create('/api/statuses', { name: 'Training' })).id;
    const buyer = (await create('/api/buyers', { firstName: 'Dee', lastName: 'Ray' })).id;

    const terms = [
      { termsMonths: 0, interestApr: null, scheduleStartDate: '2026-02-10', salePrice: '5000', downPayment: '5000' },
      { termsMonths: 3, interestApr: null, scheduleStartDate: '2026-01-31', salePrice: '9000', downPayment: '0' },
      { termsMonths: 6, interestApr: 7.25, scheduleStartDate: '2025-12-31', salePrice: '12345.67', downPayment: '345.67' },
      { termsMonths: 12, interestApr: 12, scheduleStartDate: '2026-03-15', salePrice: '24000', downPayment: '4000' },
      { termsMonths: 12, interestApr: 3.5, scheduleStartDate: null, salePrice: '1800', downPayment: '100' },
      { termsMonths: 3, interestApr: null, scheduleStartDate: '2026-01-01', salePrice: '3000', downPayment: '3000' },
    ];
    const payments = [[0], [1500, 1500], [2000.5], [], [150, 150, 150], []];
    for (const [index, sale] of terms.entries()) {
      const horse = await create('/api/horses', {
        name: `Sold ${index}`,
        breedId: breed,
        colorId: color,
        genderId: gender,
        statusId: forSale,
        priceUsd: '1000',
      });
      const created = await create('/api/sales', { horseId: horse.id, buyerId: buyer, ...sale });
      for (const amount of payments[index]!.filter((value) => value > 0)) {
        await create('/api/payments', { saleId: created.id, amount, date: '2026-02-01', method: 'Cash' });
      }
    }
    await create('/api/horses', {
      name: 'Unsold A',
      breedId: breed,
      colorId: color,
      genderId: gender,
      statusId: training,
      priceUsd: '2500.25',
    });
    await create('/api/horses', { name: 'Unsold B', breedId: breed, colorId: color, genderId: gender, priceUsd: '1000000' });

    const sales = (await (await admin.request('/api/sales')).json()) as (StoredSale & { status: string })[];
    const allPayments = (await (await admin.request('/api/payments')).json()) as Payment[];
    const paid = (saleId: string) => allPayments.filter((p) => p.saleId === saleId).reduce((sum, p) => sum + toCents(p.amount), 0);
    const horses = (await (await admin.request('/api/horses')).json()) as {
      id: string;
      statusId: string | null;
      priceUsd: string | null;
    }[];
    const statuses = (await (await admin.request('/api/statuses')).json()) as { id: string; name: string }[];
    const thisMonth = new Date().toISOString().slice(0, 10);
    for (const today of ['2025-12-01', '2026-02-10', '2026-04-30', '2027-12-31', thisMonth]) {
      const expectedPastDue = sales.reduce((sum, sale) => sum + pastDueCents(sale, paid(sale.id), today), 0);
      const result = await metrics(today);
      // [D2] [D11] [D12] The captions' figures and the ageing, as a device computes them.
      const device = ranchFigures({ horses, statuses, sales, paidCents: new Map(sales.map((sale) => [sale.id, paid(sale.id)])) }, today);
      expect(result, today).toMatchObject({
        horsesAddedThisMonth: device.horsesAddedThisMonth,
        inventoryValueLastMonth: fromCents(device.inventoryValueLastMonthCents),
        pending: fromCents(device.pendingCents),
        accountsPastDue: device.accountsPastDue,
        ageing: Object.fromEntries(Object.entries(device.ageing).map(([key, cents]) => [key, fromCents(cents)])),
      });
      if (today === thisMonth) expect(result.horsesAddedThisMonth).toBe(8);
      if (today === '2027-12-31') expect([result.horsesAddedThisMonth, result.accountsPastDue]).toEqual([0, 1]);
      expect(result, today).toMatchObject({
        totalHorses: 8,
        inventoryValue: '1002500.25',
        activeSales: sales.filter((sale) => saleStatus(sale, paid(sale.id)) === 'Open').length,
        pastDue: fromCents(expectedPastDue),
        // As the device computes it: every status by name, then the horses with none; the six
        // horses sold are Sold ([S18]).
        statusDistribution: [
          { name: 'For Sale', count: 0 },
          { name: 'Sold', count: 6 },
          { name: 'Training', count: 1 },
          { name: 'No Status', count: 1 },
        ],
      });
    }
    expect(sales.filter((sale) => sale.status === 'Open')).toHaveLength(4);
    expect((await metrics('2027-12-31')).pastDue).not.toBe('0.00');
  });

  it('[D9] refuses a malformed date', async () => {
    const response = await admin.request('/api/dashboard/metrics?today=yesterday');
    expect(response.status).toBe(400);
  });
});
