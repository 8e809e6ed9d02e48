import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { collectionMap, newId, writeEntity, type EntityFields, type LedgerPage } from '../../shared/index.ts';
import { allPayments } from '../../web/src/data/ledger/read-payments.ts';
import { LOCAL_ORIGIN } from '../../web/src/data/origins.ts';
import type { RanchData } from '../../web/src/data/ranch-data.ts';
import { appendStoredUpdates } from '../../web/src/data/stored-update.ts';
import { client, createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { openDeviceData, ownerOf } from './support/device-data.ts';
import { storedInLayout2 } from './support/layout-2-document.ts';
import { paymentRecord, saleRecord } from './support/sale-record.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';

// The data layer reads the browser's online flag; Node 20 has no navigator.
vi.stubGlobal('navigator', { onLine: true });

const createdAt = '2026-12-02T10:00:00.000Z';

/**
 * Writes records into the device's document as the app of the old layout did (a local change,
 * stored on the device): the app of today writes these as ledger entries.
 */
async function writeOldLayout(data: RanchData, docDbName: string, records: [string, string, EntityFields][]): Promise<void> {
  const updates: Uint8Array[] = [];
  const capture = (update: Uint8Array) => updates.push(update);
  data.doc.on('update', capture);
  try {
    data.doc.transact(() => {
      for (const [collection, id, fields] of records) writeEntity(data.doc, collection as 'sales', id, fields);
    }, LOCAL_ORIGIN);
  } finally {
    data.doc.off('update', capture);
  }
  await appendStoredUpdates(docDbName, [Y.mergeUpdates(updates)]);
}

/**
 * Issue 68 "Done when": a device holding changes of the old layout (sales and payments in its
 * document, unsent) meets a server of layout 3: they arrive, once each, as ledger entries, and
 * the device and another device show them once (docs/sync-rules.md §6, §7).
 */
describe.each(databaseKinds())('a device with sales of the old layout in its document (%s)', (kind) => {
  let ranch: StaffRanch;
  let staff: ApiClient;
  let owner: { userId: string; name: string };
  let horseId = '';
  let buyerId = '';
  const opened: RanchData[] = [];

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    staff = ranch.staff;
    owner = await ownerOf(staff);
    const { breed: breedId, color: colorId, gender: genderId } = ranch.lookups;
    const status = await createdId(staff, '/api/statuses', { name: 'For Sale' });
    horseId = await createdId(staff, '/api/horses', { name: 'Juniper', breedId, colorId, genderId, statusId: status });
    buyerId = await createdId(staff, '/api/buyers', { firstName: 'Cy', lastName: 'Buyer' });
  }, 120_000);
  afterAll(async () => {
    for (const data of opened) await data.destroy().catch(() => {});
    await ranch?.server.destroy();
  });

  let seq = 0;
  const fresh = () => ({ docDbName: `doc-old-${kind}-${++seq}-${Date.now()}`, readDbName: `read-old-${kind}-${seq}-${Date.now()}` });
  let names = fresh();
  const open = (given = fresh()) => {
    names = given;
    const data = openDeviceData(ranch.server.url, staff.cookie, given);
    opened.push(data);
    return data;
  };
  const synced = (data: RanchData) =>
    vi.waitFor(() => expect(data.sync?.provider.synced && data.tracker.isSaved()).toBe(true), { timeout: 20_000, interval: 50 });

  it('sends them when it reconnects: each is recorded once, and both devices show it once, from the ledger', async () => {
    const phone = open();
    expect((await phone.connect(owner)).kind).toBe('syncing');
    await synced(phone);

    // Offline, the sale and a payment go into the device's document, as a device of the old layout writes them.
    phone.setOnline(false);
    const saleId = newId();
    const paymentId = newId();
    await writeOldLayout(phone, names.docDbName, [
      ['sales', saleId, saleRecord({ horseId, buyerId, salePrice: '3000.00', createdAt })],
      ['payments', paymentId, paymentRecord(saleId, '250.00', createdAt)],
    ]);
    expect(collectionMap(phone.doc, 'sales').has(saleId)).toBe(true);
    expect(phone.tracker.isSaved()).toBe(false);

    phone.setOnline(true);
    const ledger = async () => ((await (await staff.request('/api/ledger')).json()) as LedgerPage).entries;
    await vi.waitFor(
      async () => {
        const entries = await ledger();
        expect(entries.filter((entry) => entry.id === saleId)).toHaveLength(1);
        expect(entries.filter((entry) => entry.id === paymentId)).toHaveLength(1);
      },
      { timeout: 30_000, interval: 200 },
    );
    const sales = (await (await staff.request('/api/sales')).json()) as { id: string }[];
    expect(sales.filter((sale) => sale.id === saleId)).toHaveLength(1);

    // The device reads them from the ledger; its document no longer holds them.
    await vi.waitFor(
      async () => {
        expect((await phone.db.sales.get(saleId))?.ledgerSeq).toEqual(expect.any(Number));
        expect((await phone.db.payments.get(paymentId))?.ledgerSeq).toEqual(expect.any(Number));
        expect(collectionMap(phone.doc, 'sales').has(saleId)).toBe(false);
      },
      { timeout: 30_000, interval: 200 },
    );
    await phone.projection.idle();
    expect((await allPayments(phone.db)).filter((payment) => payment.id === paymentId)).toHaveLength(1);
    expect(await phone.db.sales.count()).toBe(1);

    // Another device: once each.
    const office = open();
    expect((await office.connect(owner)).kind).toBe('syncing');
    await synced(office);
    await vi.waitFor(async () => expect((await office.db.payments.get(paymentId))?.amount).toBe('250.00'), { timeout: 30_000 });
    await office.projection.idle();
    expect(await office.db.sales.count()).toBe(1);
    expect((await allPayments(office.db)).filter((payment) => payment.id === paymentId)).toHaveLength(1);
  }, 120_000);

  it('a device of before the switch, with unsent sales in its document, meets the switched server: every record arrives once and shows once', async () => {
    const { breed: breedId, color: colorId, gender: genderId } = ranch.lookups;
    const soldBefore = await createdId(staff, '/api/horses', { name: 'Before', breedId, colorId, genderId, statusId: null });
    const soldOffline = await createdId(staff, '/api/horses', { name: 'Offline', breedId, colorId, genderId, statusId: null });
    const phone = open();
    const kept = names;
    expect((await phone.connect(owner)).kind).toBe('syncing');
    await synced(phone);
    phone.setOnline(false);

    // The server as it was, layout 2: a sale and its payment in the stored document, which the
    // device synced before it lost its signal. The server comes back switched (layout 3): the
    // stored document's records move to the ledger at load.
    const saleBefore = newId();
    const paymentBefore = newId();
    const stored = await storedInLayout2(ranch.server, (doc) => {
      writeEntity(doc, 'sales', saleBefore, saleRecord({ horseId: soldBefore, buyerId, salePrice: '900.00', createdAt }));
      writeEntity(doc, 'payments', paymentBefore, paymentRecord(saleBefore, '100.00', createdAt));
    });
    ranch.server = stored.server;
    staff = client(ranch.server.url, staff.cookie); // the same session, at the restarted server's address
    Y.applyUpdate(phone.doc, stored.update);
    await appendStoredUpdates(kept.docDbName, [stored.update]);
    await vi.waitFor(async () => expect(await phone.db.sales.get(saleBefore)).toBeDefined(), { timeout: 20_000 });

    // With no signal it records a sale and two payments, into its document; then the tab closes.
    const saleOffline = newId();
    const paymentOffline = newId();
    const paymentOnOld = newId();
    await writeOldLayout(phone, kept.docDbName, [
      ['sales', saleOffline, saleRecord({ horseId: soldOffline, buyerId, salePrice: '500.00', createdAt })],
      ['payments', paymentOffline, paymentRecord(saleOffline, '50.00', createdAt)],
      ['payments', paymentOnOld, paymentRecord(saleBefore, '25.00', createdAt)],
    ]);
    opened.splice(opened.indexOf(phone), 1);
    await phone.destroy();

    const again = open(kept);
    expect((await again.connect(owner)).kind).toBe('syncing');
    const ids = [saleBefore, paymentBefore, saleOffline, paymentOffline, paymentOnOld];
    await vi.waitFor(
      async () => {
        const entries = ((await (await staff.request('/api/ledger')).json()) as LedgerPage).entries.map((entry) => entry.id);
        for (const id of ids)
          expect(
            entries.filter((entry) => entry === id),
            id,
          ).toHaveLength(1);
      },
      { timeout: 30_000, interval: 200 },
    );
    await vi.waitFor(
      async () => {
        expect((await again.db.sales.bulkGet([saleBefore, saleOffline])).map((row) => typeof row?.ledgerSeq)).toEqual(['number', 'number']);
        expect(
          (await again.db.payments.bulkGet([paymentBefore, paymentOffline, paymentOnOld])).every(
            (row) => typeof row?.ledgerSeq === 'number',
          ),
        ).toBe(true);
        expect(collectionMap(again.doc, 'sales').size + collectionMap(again.doc, 'payments').size).toBe(0);
      },
      { timeout: 30_000, interval: 200 },
    );
    await again.projection.idle();
    const payments = (await allPayments(again.db)).map((payment) => payment.id);
    for (const id of [paymentBefore, paymentOffline, paymentOnOld]) expect(payments.filter((payment) => payment === id)).toHaveLength(1);
    const sales = (await (await staff.request('/api/sales')).json()) as { id: string }[];
    expect(sales.filter((sale) => sale.id === saleOffline)).toHaveLength(1);
  }, 120_000);
});
