import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectionMap, LEDGER_FLAGS, type LedgerPage } from '../../shared/index.ts';
import type { RanchNotice } from '../../web/src/data/compensation-notices.ts';
import { allPayments } from '../../web/src/data/ledger/read-payments.ts';
import type { RanchData } from '../../web/src/data/ranch-data.ts';
import { createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { openDeviceData, type DeviceNames, ownerOf } from './support/device-data.ts';
import { saleRecord } from './support/sale-record.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';

// The data layer reads the browser's online flag; Node 20 has no navigator.
vi.stubGlobal('navigator', { onLine: true });

/**
 * Issue 68: a device records sales, payments and corrections as ledger entries — shown at
 * once, offline too, pushed when online, recorded once, pulled by every device; what the
 * server flags or refuses is told (docs/sync-rules.md §7 "The device's side").
 */
describe.each(databaseKinds())('a device records sales and payments in the ledger (%s)', (kind) => {
  let ranch: StaffRanch;
  let staff: ApiClient;
  let owner: { userId: string; name: string };
  let buyerId = '';
  let forSale = '';
  const opened: RanchData[] = [];

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    staff = ranch.staff;
    owner = await ownerOf(staff);
    forSale = await createdId(staff, '/api/statuses', { name: 'For Sale' });
    buyerId = await createdId(staff, '/api/buyers', { firstName: 'Cy', lastName: 'Buyer' });
  }, 120_000);
  afterAll(async () => {
    for (const data of opened) await data.destroy().catch(() => {});
    await ranch?.server.destroy();
  });

  let seq = 0;
  const fresh = (): DeviceNames => ({
    docDbName: `doc-lw-${kind}-${++seq}-${Date.now()}`,
    readDbName: `read-lw-${kind}-${seq}-${Date.now()}`,
  });
  /** A device; `fetchLedger` stands between it and the server's /api/ledger (a test's failures). */
  const open = (names: DeviceNames = fresh(), fetchLedger: typeof fetch = fetch) => {
    const data = openDeviceData(ranch.server.url, staff.cookie, names, fetchLedger);
    opened.push(data);
    return data;
  };
  const connected = async (data: RanchData) => {
    expect((await data.connect(owner)).kind).toBe('syncing');
    await vi.waitFor(() => expect(data.sync?.provider.synced && data.tracker.isSaved()).toBe(true), { timeout: 20_000, interval: 50 });
  };
  const ledgerIds = async () => ((await (await staff.request('/api/ledger')).json()) as LedgerPage).entries.map((entry) => entry.id);
  const recordedOnce = (ids: string[]) =>
    vi.waitFor(
      async () => {
        const all = await ledgerIds();
        for (const id of ids)
          expect(
            all.filter((entry) => entry === id),
            id,
          ).toHaveLength(1);
      },
      { timeout: 30_000, interval: 100 },
    );
  const pulled = (data: RanchData, table: 'sales' | 'payments' | 'corrections', id: string) =>
    vi.waitFor(async () => expect((await data.db[table].get(id))?.ledgerSeq).toEqual(expect.any(Number)), {
      timeout: 30_000,
      interval: 50,
    });
  const notices = (data: RanchData): RanchNotice[] => data.notices.get().batches.flatMap((batch) => batch.notices);
  const horseNamed = (name: string) =>
    createdId(staff, '/api/horses', {
      name,
      breedId: ranch.lookups.breed,
      colorId: ranch.lookups.color,
      genderId: ranch.lookups.gender,
      statusId: forSale,
    });
  const statusName = async (data: RanchData, horseId: string) => {
    const horse = await data.db.horses.get(horseId);
    return horse?.statusId ? (await data.db.statuses.get(horse.statusId))?.name : null;
  };

  it('[P14] offline, a sale of a horse made offline and its payment show at once; online, each is recorded once and another device shows it once', async () => {
    const phone = open();
    await connected(phone);

    phone.setOnline(false);
    const horseId = await phone.writes.horses.create({
      name: 'Offline Comet',
      breedId: ranch.lookups.breed,
      colorId: ranch.lookups.color,
      genderId: ranch.lookups.gender,
      statusId: forSale,
    });
    const saleId = await phone.writes.sales.create({ horseId, buyerId, salePrice: '3000', downPayment: '0', termsMonths: 3 });
    const paymentId = await phone.writes.payments.create({ saleId, amount: '250', date: '2026-12-02', method: 'Cash' });
    // Shown at once, waiting: the rows, and the horse Sold ([S18]); nothing in the document but the horse.
    expect(await phone.db.sales.get(saleId)).toMatchObject({ salePrice: '3000.00', ledgerSeq: null, flags: [] });
    expect(await phone.db.payments.get(paymentId)).toMatchObject({ amount: '250.00', ledgerSeq: null });
    await phone.projection.idle();
    expect(await statusName(phone, horseId)).toBe('Sold');
    expect(collectionMap(phone.doc, 'sales').size + collectionMap(phone.doc, 'payments').size).toBe(0);
    expect(await phone.db.outbox.count()).toBe(2);
    expect((await phone.countUnsent()).records).toBeGreaterThanOrEqual(2);
    // [H8] The horse a waiting sale names is not deleted.
    await expect(phone.writes.horses.remove(horseId)).rejects.toThrow('This horse cannot be deleted: 1 sale refers to it');

    phone.setOnline(true);
    await recordedOnce([saleId, paymentId]);
    await pulled(phone, 'sales', saleId);
    await pulled(phone, 'payments', paymentId);
    await vi.waitFor(async () => expect(await phone.db.outbox.count()).toBe(0));
    const sales = (await (await staff.request('/api/sales')).json()) as { id: string; horseId: string }[];
    expect(sales.filter((sale) => sale.id === saleId)).toEqual([expect.objectContaining({ horseId })]);

    const office = open();
    await connected(office);
    await pulled(office, 'payments', paymentId);
    await office.projection.idle();
    expect((await office.db.sales.filter((sale) => sale.id === saleId).toArray()).length).toBe(1);
    expect((await allPayments(office.db)).filter((payment) => payment.id === paymentId)).toHaveLength(1);
    expect(await statusName(office, horseId)).toBe('Sold');
  }, 120_000);

  it('[P13] a payment recorded offline on a sale cancelled meanwhile is kept, flagged, and its device is told; the cancellation gives the horse its status back', async () => {
    const horseId = await horseNamed('Juniper');
    const phone = open();
    const office = open();
    await connected(phone);
    await connected(office);
    const saleId = await office.writes.sales.create({ horseId, buyerId, salePrice: '900', downPayment: '0', termsMonths: 3 });
    await pulled(phone, 'sales', saleId);

    phone.setOnline(false);
    const paymentId = await phone.writes.payments.create({ saleId, amount: '100', date: '2026-12-03', method: 'Cash' });
    const cancelId = await office.writes.corrections.cancelSale(saleId, { reason: 'Changed their mind' });
    await vi.waitFor(async () => expect(await statusName(office, horseId)).toBe('For Sale'), { timeout: 20_000 });
    await recordedOnce([cancelId]);

    phone.setOnline(true);
    await recordedOnce([paymentId]);
    await vi.waitFor(async () => expect((await phone.db.payments.get(paymentId))?.flags).toEqual(['saleCancelled']), { timeout: 30_000 });
    expect(notices(phone)).toContainEqual(
      expect.objectContaining({ collection: 'payments', id: paymentId, action: 'flagged', reason: LEDGER_FLAGS.saleCancelled }),
    );
    await pulled(office, 'payments', paymentId);
    expect((await office.db.payments.get(paymentId))?.flags).toEqual(['saleCancelled']);
  }, 120_000);

  it('[S19] an entry the server refuses is told, counts nowhere, is told again at the next start and goes when dismissed', async () => {
    const names = fresh();
    const phone = open(names);
    await connected(phone);
    // A sale this device holds that the server never had (a row as a pull writes it).
    const ghost = '0190a000-0000-7000-8000-00000000beef';
    await phone.db.sales.put({
      id: ghost,
      ...saleRecord({ horseId: await horseNamed('Ghost'), buyerId, salePrice: '10.00', createdAt: '2026-12-01T10:00:00.000Z' }),
      ledgerSeq: 9999,
      flags: [],
    } as never);
    const paymentId = await phone.writes.payments.create({ saleId: ghost, amount: '5', date: '2026-12-02', method: 'Cash' });
    await vi.waitFor(
      () =>
        expect(notices(phone)).toContainEqual(
          expect.objectContaining({ id: paymentId, action: 'refused', reason: 'saleId: no such sale in the ledger' }),
        ),
      { timeout: 30_000, interval: 50 },
    );
    expect(await phone.db.payments.get(paymentId)).toBeUndefined();
    expect(await ledgerIds()).not.toContain(paymentId);
    const kept = await phone.db.outbox.toArray();
    expect(kept).toEqual([expect.objectContaining({ refused: 'saleId: no such sale in the ledger' })]);
    expect((await phone.countUnsent()).records).toBe(0);

    // The next start tells it again; dismissed, it goes.
    opened.splice(opened.indexOf(phone), 1);
    await phone.destroy();
    const again = open(names);
    await again.loaded;
    await vi.waitFor(() => expect(notices(again).map((notice) => notice.id)).toEqual([paymentId]));
    await again.dismissRefused(notices(again)[0]!.intent!);
    expect(notices(again)).toEqual([]);
    expect(await again.db.outbox.count()).toBe(0);
  }, 120_000);

  it('[P14] a push answered 503 is kept and tried again: recorded once', async () => {
    let failing = 2;
    const posts: number[] = [];
    const flaky: typeof fetch = async (input, init) => {
      if (init?.method === 'POST') {
        posts.push(Date.now());
        if (failing-- > 0) return new Response(JSON.stringify({ message: 'Busy' }), { status: 503, headers: { 'retry-after': '0' } });
      }
      return fetch(input, init);
    };
    const phone = open(fresh(), flaky);
    await connected(phone);
    const saleId = await phone.writes.sales.create({
      horseId: await horseNamed('Retry'),
      buyerId,
      salePrice: '700',
      downPayment: '0',
      termsMonths: 3,
    });
    await recordedOnce([saleId]);
    await pulled(phone, 'sales', saleId);
    expect(posts.length).toBe(3);
    expect(await phone.db.outbox.count()).toBe(0);
  }, 120_000);
});
