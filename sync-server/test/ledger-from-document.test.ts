import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { collectionMap, markHorseSold, newId, writeEntity, type LedgerPage } from '../../shared/index.ts';
import { entriesOfDocument, moveDocumentToLedger } from '../src/ledger/from-document.ts';
import { client, createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { appendLayout2 } from './support/layout-2-document.ts';
import { durableDocument } from './support/ranch-state.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';
import { connectDevice, whenSynced } from './support/sync-client.ts';
import { saleRecord } from './support/sale-record.ts';

type Row = { id: string };

/** Layout 3: a document's sales, payments and corrections move into the ledger (docs/sync-rules.md §7). */
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
  const ledger = async () => ((await (await staff.request('/api/ledger?after=0')).json()) as LedgerPage).entries;
  const doc = async () => (await ranch.server.registry.get()).doc;

  it('moves every sale, payment and correction of a stored layout-2 document with its id, author and time, once; care entries stay', async () => {
    const horseId = await horse();
    const cancelled = await horse();
    const careIds = (
      (await (
        await staff.request('/api/careEntries', { method: 'POST', json: { horseIds: [horseId], kind: 'vet', doneOn: '2026-12-01' } })
      ).json()) as Row[]
    ).map((row) => row.id);
    // As a server of layout 2 stored what Staff recorded through REST: the horses marked Sold, the cancelled one back.
    const [saleId, paymentId, voidId, other, cancelId, refundId] = [newId(), newId(), newId(), newId(), newId(), newId()];
    const at = (minute: number) => `2026-12-01T10:0${minute}:00.000Z`;
    const nothing = { amount: null, date: null, method: null };
    const sale = (horse: string, salePrice: string, downPayment: string, termsMonths: number, createdAt: string) => ({
      horseId: horse,
      buyerId: buyer,
      salePrice,
      downPayment,
      termsMonths,
      interestApr: null,
      scheduleStartDate: null,
      previousStatusId: null,
      createdAt,
    });
    await appendLayout2(
      ranch.server,
      (doc) => {
        markHorseSold(doc, horseId);
        writeEntity(doc, 'sales', saleId, sale(horseId, '900.00', '0.00', 3, at(0)));
        writeEntity(doc, 'payments', paymentId, {
          saleId,
          amount: '300.00',
          date: '2026-12-01',
          method: 'Cash',
          memo: null,
          installmentId: null,
          createdAt: at(1),
        });
        writeEntity(doc, 'corrections', voidId, { kind: 'void', saleId, paymentId, ...nothing, reason: 'Bounced', createdAt: at(2) });
        writeEntity(doc, 'sales', other, sale(cancelled, '500.00', '100.00', 6, at(3)));
        writeEntity(doc, 'corrections', cancelId, {
          kind: 'cancel',
          saleId: other,
          paymentId: null,
          ...nothing,
          reason: 'Withdrew',
          createdAt: at(4),
        });
        writeEntity(doc, 'corrections', refundId, {
          kind: 'refund',
          saleId: other,
          paymentId: null,
          amount: '100.00',
          date: '2026-12-02',
          method: 'Check',
          reason: 'Down payment back',
          createdAt: at(5),
        });
      },
      staffId,
    );
    const layout2 = await durableDocument(ranch.server.db.sql);
    const statusesBefore = await (await staff.request('/api/horses')).text();

    // The server loads it: everything moves, in one run.
    ranch.server = await ranch.server.restart();
    staff = client(ranch.server.url, staff.cookie);
    const loaded = await doc();
    const entries = await ledger();
    // Sales first, then payments and corrections: each after what it names. Care entries are not moved.
    expect(entries.map((entry) => entry.id)).toEqual([saleId, other, paymentId, voidId, cancelId, refundId]);
    expect(careIds).toHaveLength(1);
    expect(collectionMap(await doc(), 'careEntries').has(careIds[0]!)).toBe(true);
    expect(entries[0]).toMatchObject({ collection: 'sales', recordedBy: staffId, flags: [], receivedAt: at(0) });
    expect(entries[0]?.record).toMatchObject({ horseId, buyerId: buyer, salePrice: '900.00', termsMonths: 3 });
    expect(entries.find((entry) => entry.id === refundId)?.record).toMatchObject({ kind: 'refund', amount: '100.00', method: 'Check' });
    // The document already held the statuses the sales set: moving changes no horse.
    expect(await (await staff.request('/api/horses')).text()).toBe(statusesBefore);
    expect((['sales', 'payments', 'corrections'] as const).map((name) => collectionMap(loaded, name).size)).toEqual([0, 0, 0]);

    const again = await moveDocumentToLedger(ranch.server.db.sql, layout2);
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
      await expect.poll(async () => (await ledger()).filter((entry) => [saleId, paymentId].includes(entry.id)).length).toBe(2);
      const entries = await ledger();
      expect([saleId, paymentId].map((id) => entries.find((entry) => entry.id === id)?.flags)).toEqual([[], ['overpaid']]);
      // The care entry stays in the document, where the sync rules gave it its sender as author ([K1]).
      expect(entries.find((entry) => entry.id === careId)).toBeUndefined();
      expect(collectionMap(server, 'careEntries').get(careId)?.get('recordedBy')).toBe(staffId);
      expect(entries.find((entry) => entry.id === saleId)).toMatchObject({ recordedBy: staffId, record: { salePrice: '700.00' } });
      expect(collectionMap(server, 'sales').has(saleId)).toBe(false);
    } finally {
      device.destroy();
    }
  });
});
