import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { collectionMap, newId, writeEntity, type LedgerPage } from '../../shared/index.ts';
import { entriesOfDocument, moveDocumentToLedger, recordOldLayoutWrites } from '../src/ledger/from-document.ts';
import { createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';
import { connectDevice, whenSynced } from './support/sync-client.ts';
import { saleRecord } from './support/sale-record.ts';

type Row = { id: string };

/** Issue 68: moving the document's sales, payments and corrections into the ledger (built, not yet switched on). */
describe.each(databaseKinds())('moving recorded facts from the document to the ledger (%s)', (kind) => {
  let ranch: StaffRanch;
  let staff: ApiClient;
  let staffId = '';
  let buyer = '';
  let horses = 0;

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    staff = ranch.staff;
    staffId = ((await (await staff.request('/api/auth/user')).json()) as { id: string }).id;
    buyer = await createdId(staff, '/api/buyers', { firstName: 'Dee', lastName: 'Buyer' });
  });
  afterAll(() => ranch.server.destroy());

  const horse = () => {
    const { breed: breedId, color: colorId, gender: genderId } = ranch.lookups;
    return createdId(staff, '/api/horses', { name: `Moved ${++horses}`, breedId, colorId, genderId });
  };
  const post = (path: string, json: unknown) => createdId(staff, path, json);
  const ledger = async () => ((await (await staff.request('/api/ledger?after=0')).json()) as LedgerPage).entries;
  const doc = async () => (await ranch.server.registry.get()).doc;

  it('moves every sale, payment and correction with its id, author and time, once; care entries stay in the document', async () => {
    const horseId = await horse();
    const cancelled = await horse();
    const saleId = await post('/api/sales', { horseId, buyerId: buyer, salePrice: '900', downPayment: '0', termsMonths: 3 });
    const paymentId = await post('/api/payments', { saleId, amount: '300', date: '2026-12-01', method: 'Cash' });
    const voidId = await post(`/api/payments/${paymentId}/void`, { reason: 'Bounced' });
    const other = await post('/api/sales', { horseId: cancelled, buyerId: buyer, salePrice: '500', downPayment: '100', termsMonths: 6 });
    const cancelId = await post(`/api/sales/${other}/cancel`, { reason: 'Withdrew' });
    const refundId = await post(`/api/sales/${other}/refunds`, {
      amount: '100',
      date: '2026-12-02',
      method: 'Check',
      reason: 'Down payment back',
    });
    const careIds = (
      (await (
        await staff.request('/api/careEntries', { method: 'POST', json: { horseIds: [horseId], kind: 'vet', doneOn: '2026-12-01' } })
      ).json()) as Row[]
    ).map((row) => row.id);
    const statusesBefore = await (await staff.request('/api/horses')).text();

    const moved = await moveDocumentToLedger(ranch.server.db.sql, await doc());
    expect(moved).toMatchObject({ recorded: 6, duplicates: 0, refused: [], unmoved: [] });
    const entries = await ledger();
    // Sales first, then payments and corrections: each after what it names. Care entries are not moved.
    expect(entries.map((entry) => entry.id)).toEqual([saleId, other, paymentId, voidId, cancelId, refundId]);
    expect(careIds).toHaveLength(1);
    expect(collectionMap(await doc(), 'careEntries').has(careIds[0]!)).toBe(true);
    const sales = (await (await staff.request('/api/sales')).json()) as { id: string; createdAt: string }[];
    const sale = entries[0]!;
    expect(sale).toMatchObject({
      collection: 'sales',
      recordedBy: staffId,
      flags: [],
      receivedAt: sales.find((s) => s.id === saleId)?.createdAt,
    });
    expect(sale.record).toMatchObject({ horseId, buyerId: buyer, salePrice: '900.00', termsMonths: 3 });
    expect(entries.find((entry) => entry.id === refundId)?.record).toMatchObject({ kind: 'refund', amount: '100.00', method: 'Check' });
    // The document already holds the statuses the sales set: moving changes no horse.
    expect(await (await staff.request('/api/horses')).text()).toBe(statusesBefore);

    const again = await moveDocumentToLedger(ranch.server.db.sql, await doc());
    expect(again).toMatchObject({ recorded: 0, duplicates: 6 });
    expect(await ledger()).toHaveLength(6);
  });

  it('leaves a record that is no valid entry where it is, and says so', () => {
    const scratch = new Y.Doc();
    const good = newId();
    const bad = newId();
    const fields = {
      saleId: newId(),
      amount: '5',
      date: '2026-12-01',
      method: 'Cash',
      memo: null,
      installmentId: null,
      createdAt: '2026-12-01T00:00:00.000Z',
    };
    writeEntity(scratch, 'payments', good, fields);
    writeEntity(scratch, 'payments', bad, { ...fields, amount: 'lots' });
    const { entries, unmoved } = entriesOfDocument(scratch);
    expect(entries.map((entry) => entry.id)).toEqual([good]);
    expect(unmoved).toEqual([{ collection: 'payments', id: bad, problem: expect.stringContaining('amount') }]);
  });

  it('records an old-layout write from a stock client as the ledger entries its sender would have pushed', async () => {
    const horseId = await horse();
    const device = connectDevice(ranch.server.url, staff.cookie);
    try {
      await whenSynced(device);
      const saleId = newId();
      const paymentId = newId();
      const careId = newId();
      const createdAt = new Date().toISOString();
      device.doc.transact(() => {
        const sale = saleRecord({ horseId, buyerId: buyer, salePrice: '700', createdAt });
        writeEntity(device.doc, 'sales', saleId, sale);
        writeEntity(device.doc, 'payments', paymentId, {
          saleId,
          amount: '800',
          date: '2026-12-03',
          method: 'Card',
          memo: null,
          installmentId: null,
          createdAt,
        });
        writeEntity(device.doc, 'careEntries', careId, {
          horseId,
          kind: 'dental',
          doneOn: '2026-12-03',
          nextDueOn: null,
          notes: null,
          recordedBy: newId(),
          recordedByName: 'Forged',
          createdAt,
        });
      });
      const server = await doc();
      await expect.poll(() => collectionMap(server, 'careEntries').has(careId)).toBe(true);

      const changes = new Map([
        ['sales', new Set([saleId])],
        ['payments', new Set([paymentId])],
        ['careEntries', new Set([careId])],
        ['horses', new Set([horseId])],
      ] as const);
      const appended = await recordOldLayoutWrites(ranch.server.db.sql, ranch.server.registry, staffId, server, changes);
      expect(appended?.results.map((result) => [result.id, result.outcome, 'flags' in result ? result.flags : []])).toEqual([
        [saleId, 'recorded', []],
        [paymentId, 'recorded', ['overpaid']],
      ]);
      const entries = await ledger();
      // The care entry stays in the document, where the sync rules gave it its sender as author ([K1]).
      expect(entries.find((entry) => entry.id === careId)).toBeUndefined();
      expect(entries.find((entry) => entry.id === saleId)).toMatchObject({ recordedBy: staffId, record: { salePrice: '700.00' } });
    } finally {
      device.destroy();
    }
  });
});
