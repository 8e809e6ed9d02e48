import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getEntity, newId, writeEntity } from '../../shared/index.ts';
import { createdId, signInAs, signIn, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN } from './support/server.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';
import { connectAckedDevice, whenSynced } from './support/sync-client.ts';
import { untilSaved } from './support/until-saved.ts';

type AckedDevice = ReturnType<typeof connectAckedDevice>;
type ApiSale = { id: string; status: string; paid: string; refunded: string; balance: string; credit: string };

/** [P10]–[P12] [S17] Corrections: create-only records, the same rules over REST and the socket. */
describe.each(databaseKinds())('corrections of sales and payments (%s)', (kind) => {
  let ranch: StaffRanch;
  let staff: ApiClient;
  let buyer = '';
  let horses = 0;
  const devices: AckedDevice[] = [];

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    staff = ranch.staff;
    buyer = await createdId(staff, '/api/buyers', { firstName: 'Cy', lastName: 'Buyer' });
  });
  afterEach(() => devices.splice(0).forEach((device) => device.destroy()));
  afterAll(() => ranch.server.destroy());

  async function device(): Promise<AckedDevice> {
    const created = connectAckedDevice(ranch.server.url, staff.cookie);
    devices.push(created);
    await whenSynced(created);
    return created;
  }
  /** A sale at `price` with `down` down, over 3 months. */
  async function sale(price: string, down = '0'): Promise<string> {
    const { breed: breedId, color: colorId, gender: genderId } = ranch.lookups;
    const horseId = await createdId(staff, '/api/horses', { name: `Corrected ${++horses}`, breedId, colorId, genderId });
    return createdId(staff, '/api/sales', { horseId, buyerId: buyer, salePrice: price, downPayment: down, termsMonths: 3 });
  }
  const pay = (saleId: string, amount: string) => createdId(staff, '/api/payments', { saleId, amount, date: '2026-03-01', method: 'Cash' });
  const standing = async (saleId: string) => ((await (await staff.request('/api/sales')).json()) as ApiSale[]).find((s) => s.id === saleId);
  const post = (path: string, json: unknown) => staff.request(path, { method: 'POST', json });
  const answer = async (response: Response) => [response.status, (await response.json()).message];

  it('[P10] voids a payment with a reason: it counts nowhere, stays listed, and cannot be voided twice', async () => {
    const saleId = await sale('900');
    const kept = await pay(saleId, '300');
    const wrong = await pay(saleId, '600');
    expect(await standing(saleId)).toMatchObject({ status: 'Paid', paid: '900.00' });

    expect(await answer(await post(`/api/payments/${wrong}/void`, { reason: '' }))).toEqual([400, 'reason: Reason is required']);
    expect((await post(`/api/payments/${wrong}/void`, { reason: 'Check bounced' })).status).toBe(201);
    expect(await standing(saleId)).toMatchObject({ status: 'Open', paid: '300.00', balance: '600.00' });
    expect(await answer(await post(`/api/payments/${wrong}/void`, { reason: 'Again' }))).toEqual([409, 'This payment is already void']);
    expect((await post(`/api/payments/${newId()}/void`, { reason: 'x' })).status).toBe(404);

    const payments = (await (await staff.request('/api/payments')).json()) as { id: string; voided: boolean }[];
    expect(payments.filter((p) => [kept, wrong].includes(p.id)).map((p) => [p.id, p.voided])).toEqual(
      expect.arrayContaining([
        [kept, false],
        [wrong, true],
      ]),
    );
    // The void is in the sale's history.
    const history = await (await staff.request(`/api/history/sales/${saleId}`)).json();
    expect(
      history.changes.some(
        (change: { collection: string; field: string; after: unknown }) =>
          change.collection === 'corrections' && change.after === 'Check bounced',
      ),
    ).toBe(true);
  });

  it('[S17] [P11] cancels a sale once; it takes no payments, and what was paid is held for the buyer until refunded', async () => {
    const saleId = await sale('1000', '200');
    await pay(saleId, '300');
    expect(
      await answer(await post(`/api/sales/${saleId}/refunds`, { amount: '1', date: '2026-03-02', method: 'Cash', reason: 'x' })),
    ).toEqual([409, 'Nothing is held for this buyer to refund']);
    expect((await post(`/api/sales/${saleId}/cancel`, { reason: 'Failed vet check' })).status).toBe(201);
    expect(await standing(saleId)).toMatchObject({ status: 'Cancelled', balance: '0.00', credit: '500.00' });
    expect(await answer(await post(`/api/sales/${saleId}/cancel`, { reason: 'Again' }))).toEqual([409, 'This sale is already cancelled']);
    expect(await answer(await post('/api/payments', { saleId, amount: '10', date: '2026-03-02', method: 'Cash' }))).toEqual([
      409,
      'This sale is cancelled and takes no payments',
    ]);
    const refund = { date: '2026-03-02', method: 'Check', reason: 'Sale cancelled' };
    expect(await answer(await post(`/api/sales/${saleId}/refunds`, { ...refund, amount: '500.01' }))).toEqual([
      409,
      'Refund is more than the $500 held for the buyer',
    ]);
    expect(await answer(await post(`/api/sales/${saleId}/refunds`, { ...refund, amount: '-5' }))).toEqual([
      400,
      'amount: Must not be negative: type the amount without a minus sign',
    ]);
    expect((await post(`/api/sales/${saleId}/refunds`, { ...refund, amount: '500' })).status).toBe(201);
    expect(await standing(saleId)).toMatchObject({ status: 'Cancelled', refunded: '500.00', credit: '0.00' });
    const corrections = (await (await staff.request('/api/corrections')).json()) as { saleId: string; kind: string }[];
    expect(
      corrections
        .filter((c) => c.saleId === saleId)
        .map((c) => c.kind)
        .sort(),
    ).toEqual(['cancel', 'refund']);
  });

  it('[R1] a Viewer may not correct', async () => {
    const viewer = await signInAs(ranch.server.url, await signIn(ranch.server.url, ADMIN.email, ADMIN.password), 'Viewer');
    const saleId = await sale('100');
    expect((await viewer.request(`/api/sales/${saleId}/cancel`, { method: 'POST', json: { reason: 'no' } })).status).toBe(403);
  });

  it('[Y6] on the socket a correction is create-only: it is recorded in the ledger, a change of it refused, an invalid one removed', async () => {
    const saleId = await sale('800');
    const paymentId = await pay(saleId, '800');
    const a = await device();
    const voidId = newId();
    const bad = newId();
    const voidOf = (reason: string) => ({
      kind: 'void',
      saleId,
      paymentId,
      amount: null,
      date: null,
      method: null,
      reason,
      createdAt: new Date().toISOString(),
    });
    a.doc.transact(() => {
      writeEntity(a.doc, 'corrections', voidId, voidOf('Entered twice'));
      // No reason, and an amount a void has no place for.
      writeEntity(a.doc, 'corrections', bad, { ...voidOf(''), amount: '5' });
    });
    await untilSaved(a);
    expect(getEntity(a.doc, 'corrections', bad)).toBeUndefined();
    expect(await standing(saleId)).toMatchObject({ status: 'Open', paid: '0.00', balance: '800.00' });

    // Layout 3: the void is a ledger entry; the document holds no correction.
    expect(getEntity(a.doc, 'corrections', voidId)).toBeUndefined();
    const reasonOf = async (id: string) =>
      ((await (await staff.request('/api/corrections')).json()) as { id: string; reason: string }[]).find((c) => c.id === id)?.reason;
    expect(await reasonOf(voidId)).toBe('Entered twice');
    // A device of the old layout that writes it again, changed: the ledger keeps it as recorded.
    a.doc.transact(() => writeEntity(a.doc, 'corrections', voidId, voidOf('Changed')));
    await untilSaved(a);
    expect(getEntity(a.doc, 'corrections', voidId)).toBeUndefined();
    expect(a.notices).toContainEqual(
      expect.objectContaining({ id: voidId, action: 'removed', reason: 'A correction cannot be changed once recorded' }),
    );
    expect(await reasonOf(voidId)).toBe('Entered twice');
    expect(await standing(saleId)).toMatchObject({ status: 'Open', paid: '0.00' });
  });

  it('[P10] a void and a payment made offline on two devices both stand; a payment on a sale cancelled meanwhile is kept as credit', async () => {
    const saleId = await sale('1000');
    const first = await pay(saleId, '400');
    const a = await device();
    const b = await device();
    a.provider.disconnect();
    b.provider.disconnect();
    a.doc.transact(() =>
      writeEntity(a.doc, 'corrections', newId(), {
        kind: 'void',
        saleId,
        paymentId: first,
        amount: null,
        date: null,
        method: null,
        reason: 'Wrong sale',
        createdAt: new Date().toISOString(),
      }),
    );
    b.doc.transact(() => {
      writeEntity(b.doc, 'corrections', newId(), {
        kind: 'cancel',
        saleId,
        paymentId: null,
        amount: null,
        date: null,
        method: null,
        reason: 'Buyer withdrew',
        createdAt: new Date().toISOString(),
      });
    });
    a.doc.transact(() =>
      writeEntity(a.doc, 'payments', newId(), {
        saleId,
        amount: '250',
        date: '2026-03-03',
        method: 'Cash',
        memo: null,
        installmentId: null,
        createdAt: new Date().toISOString(),
      }),
    );
    a.provider.connect();
    b.provider.connect();
    await untilSaved(a);
    await untilSaved(b);
    // The void counts; the payment made on the cancelled sale is kept and held for the buyer.
    await expect
      .poll(async () => standing(saleId))
      .toMatchObject({ status: 'Cancelled', paid: '250.00', credit: '250.00', balance: '0.00' });
  });
});
