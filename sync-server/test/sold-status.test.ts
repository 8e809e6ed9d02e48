import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionMap, getEntity, newId, writeEntity } from '../../shared/index.ts';
import { createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';
import { connectAckedDevice, whenSynced } from './support/sync-client.ts';
import { untilSaved } from './support/until-saved.ts';

type ApiHorse = { id: string; statusId: string | null };
type ApiStatus = { id: string; name: string; isActive: boolean };

/** [S18] A sale marks its horse Sold; cancelling it gives the horse its status back. */
describe.each(databaseKinds())('a sale changes the horse (%s)', (kind) => {
  let ranch: StaffRanch;
  let staff: ApiClient;
  let buyer = '';
  let forSale = '';
  let horses = 0;

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    staff = ranch.staff;
    buyer = await createdId(staff, '/api/buyers', { firstName: 'Di', lastName: 'Buyer' });
    forSale = await createdId(staff, '/api/statuses', { name: 'For Sale' });
  });
  afterAll(() => ranch.server.destroy());

  const horse = () => {
    const { breed: breedId, color: colorId, gender: genderId } = ranch.lookups;
    return createdId(staff, '/api/horses', { name: `Sellable ${++horses}`, breedId, colorId, genderId, statusId: forSale });
  };
  const statusOf = async (id: string) =>
    ((await (await staff.request('/api/horses')).json()) as ApiHorse[]).find((h) => h.id === id)?.statusId;
  const statuses = async () => (await (await staff.request('/api/statuses')).json()) as ApiStatus[];
  const sell = (horseId: string) =>
    staff.request('/api/sales', { method: 'POST', json: { horseId, buyerId: buyer, salePrice: '5000', termsMonths: 3 } });

  it('marks the horse Sold, making the status once; a sold horse is not sold again; cancelling gives its status back', async () => {
    const first = await horse();
    const second = await horse();
    const sale = await sell(first);
    expect(sale.status).toBe(201);
    const { id: saleId, previousStatusId } = await sale.json();
    expect(previousStatusId).toBe(forSale);
    const sold = (await statuses()).filter((status) => status.name === 'Sold');
    expect(sold).toHaveLength(1);
    expect(await statusOf(first)).toBe(sold[0]!.id);
    expect((await sell(second)).status).toBe(201);
    expect((await statuses()).filter((status) => status.name === 'Sold')).toHaveLength(1);

    const again = await sell(first);
    expect([again.status, (await again.json()).message]).toEqual([409, 'This horse is already sold']);

    expect((await staff.request(`/api/sales/${saleId}/cancel`, { method: 'POST', json: { reason: 'Vet check failed' } })).status).toBe(201);
    expect(await statusOf(first)).toBe(forSale);
    // Offered again once its sale is cancelled.
    expect((await sell(first)).status).toBe(201);
  });

  it('keeps a status someone set since the sale, and uses a Sold status the ranch already has', async () => {
    const retired = await createdId(staff, '/api/statuses', { name: 'Retired' });
    const id = await horse();
    const { id: saleId } = await (await sell(id)).json();
    const horseRow = ((await (await staff.request('/api/horses')).json()) as (ApiHorse & Record<string, unknown>)[]).find(
      (h) => h.id === id,
    )!;
    const { id: _id, ...fields } = horseRow;
    expect((await staff.request(`/api/horses/${id}`, { method: 'PUT', json: { ...fields, statusId: retired } })).status).toBe(200);
    await staff.request(`/api/sales/${saleId}/cancel`, { method: 'POST', json: { reason: 'Called off' } });
    expect(await statusOf(id)).toBe(retired);
  });

  it('a device records the sale and the horse Sold in one change, and the server keeps both', async () => {
    const id = await horse();
    const device = connectAckedDevice(ranch.server.url, staff.cookie);
    await whenSynced(device);
    const soldId = (await statuses()).find((status) => status.name === 'Sold')!.id;
    const saleId = newId();
    device.doc.transact(() => {
      writeEntity(device.doc, 'horses', id, { statusId: soldId });
      writeEntity(device.doc, 'sales', saleId, {
        horseId: id,
        buyerId: buyer,
        salePrice: '5000.00',
        downPayment: '0.00',
        termsMonths: 3,
        interestApr: null,
        scheduleStartDate: null,
        previousStatusId: forSale,
        createdAt: new Date().toISOString(),
      });
    });
    await untilSaved(device);
    // Layout 3: the sale is a ledger entry, as recorded (REST); the document keeps the horse Sold.
    const sales = (await (await staff.request('/api/sales')).json()) as { id: string; previousStatusId: string | null }[];
    expect(sales.find((sale) => sale.id === saleId)?.previousStatusId).toBe(forSale);
    expect(getEntity(device.doc, 'sales', saleId)).toBeUndefined();
    expect(collectionMap(device.doc, 'horses').get(id)?.get('statusId')).toBe(soldId);
    expect(await statusOf(id)).toBe(soldId);
    device.destroy();
  });
});
