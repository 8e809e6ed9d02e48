import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { financedTotalCents, fromCents } from '../../shared/index.ts';

describe.each(databaseKinds())('suppliers, buyers, sales and payments over REST (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;
  let viewer: ApiClient;
  const ids: Record<string, string> = {};

  async function create(path: string, body: unknown): Promise<Record<string, unknown>> {
    const response = await staff.request(path, { method: 'POST', json: body });
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    staff = await signInAs(server.url, admin, 'Staff');
    viewer = await signInAs(server.url, admin, 'Viewer');
    ids.breed = (await create('/api/breeds', { name: 'Morgan' })).id as string;
    ids.color = (await create('/api/colors', { name: 'Chestnut' })).id as string;
    ids.gender = (await create('/api/genders', { name: 'Stallion' })).id as string;
  });
  afterAll(() => server.destroy());

  it('[C7] stores suppliers with empty phone and e-mail as null, and refuses invalid e-mail', async () => {
    const owner = await create('/api/owners', { firstName: 'Ada', lastName: 'Stone', phone: '', email: '' });
    expect(owner).toMatchObject({ firstName: 'Ada', lastName: 'Stone', phone: null, email: null });
    expect(Date.parse(owner.createdAt as string)).not.toBeNaN();
    ids.owner = owner.id as string;
    const list = await (await staff.request('/api/owners')).json();
    expect(list).toEqual([owner]);

    const bad = await staff.request('/api/owners', { method: 'POST', json: { firstName: 'A', lastName: 'B', email: 'nope' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('email: Invalid email');
    const missing = await staff.request('/api/buyers', { method: 'POST', json: { lastName: 'B' } });
    expect((await missing.json()).message).toBe('firstName: First name is required');
  });

  it('[C6] edits and deletes buyers; unknown ids are 404', async () => {
    const buyer = await create('/api/buyers', { firstName: 'Ben', lastName: 'Hart', phone: '+1 (555) 010-2000', email: 'BEN@example.com' });
    expect(buyer).toMatchObject({ phone: '+1 (555) 010-2000', email: 'BEN@example.com' });
    const edited = await staff.request(`/api/buyers/${buyer.id}`, {
      method: 'PUT',
      json: { firstName: 'Benjamin', lastName: 'Hart', phone: null, email: null },
    });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ id: buyer.id, firstName: 'Benjamin', phone: null });
    expect((await staff.request(`/api/buyers/${buyer.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await (await staff.request('/api/buyers')).json()).toEqual([]);
    expect((await staff.request(`/api/buyers/${buyer.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await staff.request(`/api/buyers/${buyer.id}`, { method: 'PUT', json: { firstName: 'A', lastName: 'B' } })).status).toBe(404);
    expect((await staff.request('/api/buyers/not-an-id', { method: 'DELETE' })).status).toBe(400);
  });

  it('[S7] sells a horse on terms: Open until down payment and payments reach the price, then Paid', async () => {
    const horse = await create('/api/horses', {
      name: 'Comet',
      breedId: ids.breed,
      colorId: ids.color,
      genderId: ids.gender,
      ownerId: ids.owner,
      priceUsd: '9000',
    });
    const buyer = await create('/api/buyers', { firstName: 'Cara', lastName: 'Lane' });
    ids.buyer = buyer.id as string;
    const sale = await create('/api/sales', {
      horseId: horse.id,
      buyerId: buyer.id,
      salePrice: '9000',
      downPayment: '',
      termsMonths: '3',
      interestApr: null,
      scheduleStartDate: '2026-01-15',
    });
    expect(sale).toMatchObject({
      salePrice: '9000.00',
      downPayment: '0.00',
      termsMonths: 3,
      interestApr: null,
      scheduleStartDate: '2026-01-15',
    });
    const status = async () =>
      ((await (await staff.request('/api/sales')).json()) as { id: string; status: string }[]).find((s) => s.id === sale.id)?.status;
    expect(await status()).toBe('Open');

    const first = await create('/api/payments', {
      saleId: sale.id,
      amount: '4000',
      date: '2026-01-15',
      method: 'Check',
      memo: '',
      installmentId: null,
    });
    expect(first).toMatchObject({ amount: '4000.00', memo: null, installmentId: null, method: 'Check' });
    expect(await status()).toBe('Open');
    // [P8]: never more than the balance, and the message says it.
    const above = await staff.request('/api/payments', {
      method: 'POST',
      json: { saleId: sale.id, amount: '5000.01', date: '2026-02-15', method: 'ACH' },
    });
    expect([above.status, (await above.json()).message]).toEqual([409, 'Amount is more than the balance of $5,000']);
    await create('/api/payments', { saleId: sale.id, amount: 5000, date: '2026-02-15', method: 'ACH' });
    expect(await status()).toBe('Paid');

    const more = await staff.request('/api/payments', {
      method: 'POST',
      json: { saleId: sale.id, amount: '1', date: '2026-03-01', method: 'Cash' },
    });
    expect(more.status).toBe(409);
    expect((await more.json()).message).toMatch(/paid in full/);
    const payments = await (await staff.request('/api/payments')).json();
    expect(payments.map((p: { amount: string }) => p.amount)).toEqual(['5000.00', '4000.00']);
  });

  it('[S7] sells at 10 % APR over 12 months: Open until every installment, interest included, is paid', async () => {
    const horse = await create('/api/horses', {
      name: 'Interest',
      breedId: ids.breed,
      colorId: ids.color,
      genderId: ids.gender,
      priceUsd: '12000',
    });
    const buyer = await create('/api/buyers', { firstName: 'Ivo', lastName: 'Rate' });
    const sale = await create('/api/sales', {
      horseId: horse.id,
      buyerId: buyer.id,
      salePrice: '12000',
      downPayment: '2000',
      termsMonths: 12,
      interestApr: 10,
      scheduleStartDate: '2026-01-15',
    });
    const owed = financedTotalCents(sale as unknown as Parameters<typeof financedTotalCents>[0]);
    expect(owed).toBeGreaterThan(1_000_000);
    const status = async () =>
      ((await (await staff.request('/api/sales')).json()) as { id: string; status: string }[]).find((s) => s.id === sale.id)?.status;
    await create('/api/payments', { saleId: sale.id, amount: '10000', date: '2026-06-15', method: 'ACH' });
    // The principal is paid; the interest is not: still Open, and still takes a payment.
    expect(await status()).toBe('Open');
    await create('/api/payments', { saleId: sale.id, amount: fromCents(owed - 1_000_000 - 1), date: '2026-12-15', method: 'ACH' });
    expect(await status()).toBe('Open');
    await create('/api/payments', { saleId: sale.id, amount: '0.01', date: '2026-12-16', method: 'Cash' });
    expect(await status()).toBe('Paid');
    const more = await staff.request('/api/payments', {
      method: 'POST',
      json: { saleId: sale.id, amount: '1', date: '2027-01-01', method: 'Cash' },
    });
    expect(more.status).toBe(409);
  });

  it('[S3] [S15] [P2] [P4] [H10] [C9] refuses sales, payments, horses and contacts that break the rules', async () => {
    const [horse] = await (await staff.request('/api/horses')).json();
    const cases: [string, unknown, number, string][] = [
      [
        '/api/sales',
        { horseId: horse.id, buyerId: ids.buyer, salePrice: '100', termsMonths: 5 },
        400,
        'termsMonths: Payment terms must be 0, 3, 6 or 12 months',
      ],
      [
        '/api/sales',
        { horseId: horse.id, buyerId: ids.buyer, salePrice: '100', downPayment: '200', termsMonths: 0 },
        400,
        'downPayment: Down payment cannot exceed the sale price',
      ],
      [
        '/api/sales',
        { horseId: horse.id, buyerId: ids.buyer, salePrice: '100', downPayment: '60', termsMonths: 0 },
        400,
        'downPayment: Paid in Full: the down payment is the whole sale price',
      ],
      [
        '/api/horses',
        { name: 'Foal', breedId: ids.breed, colorId: ids.color, genderId: ids.gender, birthdate: '2030-01-01' },
        400,
        'birthdate: Birth date cannot be in the future',
      ],
      ['/api/buyers', { firstName: 'Ann', lastName: 'Lee', phone: '555-CALL-NOW' }, 400, 'phone: Invalid phone number'],
      ['/api/sales', { horseId: horse.id, buyerId: ids.owner, salePrice: '100', termsMonths: 3 }, 400, 'buyerId: no such buyer'],
      ['/api/sales', { buyerId: ids.buyer, salePrice: '1', termsMonths: 0 }, 400, 'horseId: Horse is required'],
      ['/api/payments', { saleId: ids.buyer, amount: '5', date: '2026-01-01', method: 'Cash' }, 400, 'saleId: no such sale'],
      [
        '/api/payments',
        { saleId: ids.buyer, amount: '-5', date: '2026-01-01', method: 'Cash' },
        400,
        'amount: Must not be negative: type the amount without a minus sign',
      ],
      [
        '/api/payments',
        { saleId: ids.buyer, amount: '12.345', date: '2026-01-01', method: 'Cash' },
        400,
        'amount: Must have at most two decimals (cents)',
      ],
      [
        '/api/payments',
        { saleId: ids.buyer, amount: 1e30, date: '2026-01-01', method: 'Cash' },
        400,
        'amount: Must be an amount in dollars, like 1234, 1,234.56 or $1,234.56',
      ],
      [
        '/api/payments',
        { saleId: ids.buyer, amount: '0', date: '2026-01-01', method: 'Cash' },
        400,
        'amount: Amount must be greater than 0',
      ],
      [
        '/api/payments',
        { saleId: ids.buyer, amount: '5', date: '2026-01-01', method: 'Barter' },
        400,
        'method: Payment method must be one of Cash, Card, ACH, Check, Other',
      ],
      [
        '/api/payments',
        { saleId: ids.buyer, amount: '5', date: '2026-01-01', method: 'Cash', installmentId: 'x' },
        400,
        'installmentId: installmentId must be null',
      ],
    ];
    for (const [path, body, status, message] of cases) {
      const response = await staff.request(path, { method: 'POST', json: body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((await response.json()).message).toBe(message);
    }
  });

  it('[H8] [C3] [C6] refuses to delete what others still refer to', async () => {
    const owner = await staff.request(`/api/owners/${ids.owner}`, { method: 'DELETE' });
    expect(owner.status).toBe(409);
    expect((await owner.json()).message).toBe('This supplier cannot be deleted: 1 horse refers to it');
    const breed = await staff.request(`/api/breeds/${ids.breed}`, { method: 'DELETE' });
    expect(breed.status).toBe(409);
    const [horse] = await (await staff.request('/api/horses')).json();
    expect((await staff.request(`/api/horses/${horse.id}`, { method: 'DELETE' })).status).toBe(409);
    expect((await (await staff.request('/api/owners')).json()).length).toBe(1);
  });

  it('[H7] [H8] updates and deletes horses', async () => {
    const horse = await create('/api/horses', { name: 'Temp', breedId: ids.breed, colorId: ids.color, genderId: ids.gender });
    const put = await staff.request(`/api/horses/${horse.id}`, { method: 'PUT', json: { ...horse, name: 'Tempest', priceUsd: '$1,500' } });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ name: 'Tempest', priceUsd: '1500.00' });
    expect((await staff.request(`/api/horses/${horse.id}`, { method: 'DELETE' })).status).toBe(204);
    const names = ((await (await staff.request('/api/horses')).json()) as { name: string }[]).map((h) => h.name);
    expect(names).not.toContain('Tempest');
  });

  it('[R1] lets a Viewer read every list and write none', async () => {
    for (const path of ['/api/owners', '/api/buyers', '/api/sales', '/api/payments', '/api/dashboard/metrics']) {
      expect((await viewer.request(path)).status, path).toBe(200);
    }
    for (const [method, path] of [
      ['POST', '/api/owners'],
      ['POST', '/api/buyers'],
      ['POST', '/api/sales'],
      ['POST', '/api/payments'],
      ['DELETE', `/api/owners/${ids.owner}`],
      ['PUT', `/api/buyers/${ids.buyer}`],
    ] as const) {
      const response = await viewer.request(path, { method, json: {} });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
  });
});
