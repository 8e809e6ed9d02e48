import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { collectionMap, getEntity, newId, writeEntity, type LedgerPage } from '../../shared/index.ts';
import { client, createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { storedInLayout2 } from './support/layout-2-document.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';
import { connectAckedDevice, connectDevice, whenSynced, type Device } from './support/sync-client.ts';
import { untilSaved } from './support/until-saved.ts';

const createdAt = '2026-12-01T10:00:00.000Z';
const saleFields = (horseId: string, buyerId: string, salePrice: string) => ({
  horseId,
  buyerId,
  salePrice,
  downPayment: '0.00',
  termsMonths: 3,
  interestApr: null,
  scheduleStartDate: null,
  previousStatusId: null,
  createdAt,
});
const paymentFields = (saleId: string, amount: string) => ({
  saleId,
  amount,
  date: '2026-12-02',
  method: 'Cash',
  memo: null,
  installmentId: null,
  createdAt,
});

const moved = (doc: Y.Doc) => ['sales', 'payments', 'corrections'].reduce((sum, name) => sum + doc.getMap(name).size, 0);

/**
 * Layout 3 (docs/sync-rules.md §6, §7): a stored layout-2 document has its sales, payments and
 * corrections moved into the ledger at load, and an old-layout write is recorded in the ledger
 * and removed from the document in its commit.
 */
describe.each(databaseKinds())('sales, payments and corrections of the old layout (%s)', (kind) => {
  let ranch: StaffRanch;
  let staff: ApiClient;
  let buyerId = '';
  const devices: Device[] = [];
  let made = 0;

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    staff = ranch.staff;
    buyerId = await createdId(staff, '/api/buyers', { firstName: 'Old', lastName: 'Layout' });
  });
  afterEach(() => devices.splice(0).forEach((device) => device.destroy()));
  afterAll(() => ranch.server.destroy());

  /** The server again, on the same database (a new port: the clients follow it). */
  const restart = async () => {
    ranch.server = await ranch.server.restart();
    staff = client(ranch.server.url, staff.cookie);
  };
  const horse = () => {
    const { breed: breedId, color: colorId, gender: genderId } = ranch.lookups;
    return createdId(staff, '/api/horses', { name: `Old ${++made}`, breedId, colorId, genderId });
  };
  const ledgerIds = async () => {
    const page = (await (await staff.request('/api/ledger?after=0')).json()) as LedgerPage;
    return page.entries.map((entry) => entry.id);
  };
  const statusName = async (horseId: string) => {
    const horses = (await (await staff.request('/api/horses')).json()) as { id: string; statusId: string | null }[];
    const statuses = (await (await staff.request('/api/statuses')).json()) as { id: string; name: string }[];
    return statuses.find((status) => status.id === horses.find((h) => h.id === horseId)?.statusId)?.name ?? null;
  };

  it('moves a stored layout-2 document, and a stock client holding old-layout changes from before syncs them without loss', async () => {
    const soldBefore = await horse();
    const soldOffline = await horse();
    // A stock client syncs, then goes without signal.
    const offline = new Y.Doc();
    const first = connectDevice(ranch.server.url, staff.cookie, { doc: offline });
    await whenSynced(first);
    first.provider.destroy();

    // The server as it was, layout 2: a sale and its payment in the stored document, which the
    // stock client synced before it lost its signal. The server comes back with layout 3.
    const [saleBefore, paymentBefore] = [newId(), newId()];
    const stored = await storedInLayout2(ranch.server, (doc) => {
      writeEntity(doc, 'sales', saleBefore, saleFields(soldBefore, buyerId, '900.00'));
      writeEntity(doc, 'payments', paymentBefore, paymentFields(saleBefore, '100.00'));
    });
    ranch.server = stored.server;
    staff = client(ranch.server.url, staff.cookie);
    Y.applyUpdate(offline, stored.update);

    // With no signal, the stock client records a sale and a payment, and a payment on the old sale.
    const [saleOffline, paymentOffline, paymentOnOld] = [newId(), newId(), newId()];
    offline.transact(() => {
      writeEntity(offline, 'sales', saleOffline, saleFields(soldOffline, buyerId, '500.00'));
      writeEntity(offline, 'payments', paymentOffline, paymentFields(saleOffline, '50.00'));
      writeEntity(offline, 'payments', paymentOnOld, paymentFields(saleBefore, '25.00'));
    });

    // The stored document's records moved at load.
    const server = (await ranch.server.registry.get()).doc;
    expect(moved(server)).toBe(0);
    expect(await ledgerIds()).toEqual([saleBefore, paymentBefore]);

    // The stock client reconnects with its old copy: its sale and payments arrive once, as ledger entries.
    const back = connectDevice(ranch.server.url, staff.cookie, { doc: offline });
    devices.push(back);
    await whenSynced(back);
    await expect.poll(async () => (await ledgerIds()).length).toBe(5);
    expect(await ledgerIds()).toEqual([saleBefore, paymentBefore, saleOffline, paymentOffline, paymentOnOld]);
    await expect.poll(() => moved(offline)).toBe(0);
    expect(moved(server)).toBe(0);
    // [S18] The offline sale marked its horse Sold; REST shows both sales with what was paid.
    expect(await statusName(soldOffline)).toBe('Sold');
    const sales = (await (await staff.request('/api/sales')).json()) as { id: string; paid: string }[];
    expect(sales.find((sale) => sale.id === saleBefore)?.paid).toBe('125.00');
    expect(sales.find((sale) => sale.id === saleOffline)?.paid).toBe('50.00');

    // The stock client still edits horses in layout 3.
    back.doc.transact(() => (collectionMap(back.doc, 'horses').get(soldBefore) as unknown as Y.Map<unknown>).set('notes', 'Still here'));
    await expect.poll(() => getEntity(server, 'horses', soldBefore)?.notes).toBe('Still here');

    // A second load finds nothing to move and changes nothing.
    await restart();
    expect(moved((await ranch.server.registry.get()).doc)).toBe(0);
    expect(await ledgerIds()).toHaveLength(5);
  });

  it('acknowledges an old-layout write once it is in the ledger, and removes it from the document', async () => {
    const horseId = await horse();
    const device = connectAckedDevice(ranch.server.url, staff.cookie);
    devices.push(device);
    await whenSynced(device);
    const saleId = newId();
    device.doc.transact(() => writeEntity(device.doc, 'sales', saleId, saleFields(horseId, buyerId, '300.00')));
    await untilSaved(device);
    // Acknowledged only once durable: the entry is in the ledger by then.
    expect(await ledgerIds()).toContain(saleId);
    await expect.poll(() => moved(device.doc)).toBe(0);
    expect(await statusName(horseId)).toBe('Sold');
    // And the horse is now kept by the ledger sale.
    expect((await staff.request(`/api/horses/${horseId}`, { method: 'DELETE' })).status).toBe(409);
  });
});
