import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId, type LedgerPushAnswer } from '../../shared/index.ts';
import { LEDGER_CURSOR_KEY } from '../../web/src/data/ledger/pull.ts';
import type { RanchData } from '../../web/src/data/ranch-data.ts';
import { createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { openDeviceData } from './support/device-data.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';

// The data layer reads the browser's online flag; Node 20 has no navigator.
vi.stubGlobal('navigator', { onLine: true });

const createdAt = '2026-12-01T10:00:00.000Z';

/** Issue 68, D1: a device pulls the ledger into its read database (docs/web.md "Data", docs/sync-rules.md §7). */
describe.each(databaseKinds())('a device pulling the ledger (%s)', (kind) => {
  let ranch: StaffRanch;
  let staff: ApiClient;
  let horseId = '';
  let buyerId = '';
  const opened: RanchData[] = [];

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    staff = ranch.staff;
    const { breed: breedId, color: colorId, gender: genderId } = ranch.lookups;
    const status = await createdId(staff, '/api/statuses', { name: 'For Sale' });
    horseId = await createdId(staff, '/api/horses', { name: 'Juniper', breedId, colorId, genderId, statusId: status });
    buyerId = await createdId(staff, '/api/buyers', { firstName: 'Cy', lastName: 'Buyer' });
  }, 120_000);
  afterAll(async () => {
    for (const data of opened) await data.destroy().catch(() => {});
    await ranch?.server.destroy();
  });

  const push = async (entries: unknown[]) => {
    const response = await staff.request('/api/ledger', { method: 'POST', json: { entries } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as LedgerPushAnswer;
    expect(body.results.every((result) => result.outcome === 'recorded')).toBe(true);
    return body;
  };
  const payment = (saleId: string, amount = '1.00') => ({
    id: newId(),
    collection: 'payments',
    record: { saleId, amount, date: '2026-12-02', method: 'Cash', memo: null, installmentId: null, createdAt },
  });
  let opens = 0;
  const open = () => {
    const data = openDeviceData(ranch.server.url, staff.cookie, {
      docDbName: `doc-ledger-${kind}-${++opens}-${Date.now()}`,
      readDbName: `read-ledger-${kind}-${opens}-${Date.now()}`,
    });
    opened.push(data);
    return data;
  };

  it('pulls what was recorded before it connected, what is recorded while it is connected, and what it missed offline, a page at a time', async () => {
    const saleId = newId();
    const sale = {
      id: saleId,
      collection: 'sales',
      record: {
        horseId,
        buyerId,
        salePrice: '5000',
        downPayment: '0.00',
        termsMonths: 3,
        interestApr: null,
        scheduleStartDate: null,
        previousStatusId: null,
        createdAt,
      },
    };
    await push([sale]);
    const me = (await (await staff.request('/api/auth/user')).json()) as { id: string };
    const device = open();
    expect((await device.connect({ userId: me.id, name: 'Staff' })).kind).toBe('syncing');
    // On connecting: the sale, with its seq, as the schema reads it.
    await vi.waitFor(
      async () => expect(await device.db.sales.get(saleId)).toMatchObject({ salePrice: '5000.00', ledgerSeq: 1, flags: [] }),
      {
        timeout: 20_000,
      },
    );

    // While connected: MESSAGE_LEDGER brings the next entry without a reconnect.
    const first = payment(saleId, '100');
    await push([first]);
    await vi.waitFor(async () => expect(await device.db.payments.get(first.id)).toMatchObject({ amount: '100.00', ledgerSeq: 2 }), {
      timeout: 20_000,
    });
    expect(device.sync?.provider.wsconnected).toBe(true);

    // Offline while 1,200 payments are recorded; back online, it pulls them in two pages.
    device.setOnline(false);
    const many = Array.from({ length: 1200 }, () => payment(saleId));
    let head = '';
    for (let i = 0; i < many.length; i += 500) head = (await push(many.slice(i, i + 500))).head;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await device.db.payments.count()).toBe(1);
    device.setOnline(true);
    await vi.waitFor(async () => expect(await device.db.payments.count()).toBe(1201), { timeout: 30_000, interval: 100 });
    expect(head).toBe('1202');
    await vi.waitFor(async () => expect((await device.db.meta.get(LEDGER_CURSOR_KEY))?.value).toBe(head));
    // The document's projection leaves the ledger's rows alone: the sale is still there and the ledger's.
    await device.projection.idle();
    expect((await device.db.sales.get(saleId))?.ledgerSeq).toBe(1);
  }, 120_000);
});
