import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createdId, signIn, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { startStaffRanch } from './support/staff-ranch.ts';
import { connectAckedDevice, connectDevice, whenSynced, type Device } from './support/sync-client.ts';
import { SYNC_RULES_VERSION } from '../src/sync/document-host.ts';
import { untilSaved } from './support/until-saved.ts';
import {
  collectionMap,
  COLLECTIONS,
  deleteEntity,
  getEntity,
  newId,
  readRecord,
  RECORD_FIELDS,
  writeEntity,
  type Collection,
  type JsonValue,
} from '../../shared/index.ts';

type AckedDevice = ReturnType<typeof connectAckedDevice>;

/** What REST refuses, the socket compensates (docs/sync-rules.md, the table). */
describe.each(databaseKinds())('[Y6] the socket keeps the rules REST keeps (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;
  const devices: Device[] = [];
  const ids: Record<string, string> = {};
  const create = (path: string, body: unknown) => createdId(staff, path, body);

  beforeAll(async () => {
    ({
      server,
      staff,
      lookups: { breed: ids.breed, color: ids.color, gender: ids.gender },
    } = await startStaffRanch(kind));
    ids.owner = await create('/api/owners', { firstName: 'Olga', lastName: 'Owner' });
    ids.horse = await create('/api/horses', {
      name: 'Goliath',
      breedId: ids.breed,
      colorId: ids.color,
      genderId: ids.gender,
      ownerId: ids.owner,
    });
    ids.buyer = await create('/api/buyers', { firstName: 'Bea', lastName: 'Buyer' });
    ids.sale = await create('/api/sales', {
      horseId: ids.horse,
      buyerId: ids.buyer,
      salePrice: '9000',
      downPayment: '1000',
      termsMonths: 6,
    });
    ids.payment = await create('/api/payments', {
      saleId: ids.sale,
      amount: '500',
      date: '2026-01-15',
      method: 'Cash',
      installmentId: null,
    });
  });
  afterEach(() => devices.splice(0).forEach((d) => d.destroy()));
  afterAll(() => server.destroy());

  async function device(): Promise<AckedDevice> {
    const created = connectAckedDevice(server.url, staff.cookie);
    devices.push(created);
    await whenSynced(created);
    return created;
  }
  const list = async (collection: Collection) =>
    (await staff.request(`/api/${collection}`).then((r) => r.json())) as Record<string, unknown>[];
  const entity = (target: Device, collection: Collection, id: string) => getEntity(target.doc, collection, id);

  // Layout 3: sales and payments are ledger entries, which no device holds in its document.
  it('[P5] keeps a payment as recorded when a device writes it again changed, and tells the device (payments are append-only)', async () => {
    const a = await device();
    const [recorded] = (await list('payments')).filter((payment) => payment.id === ids.payment);
    const fields = Object.fromEntries(RECORD_FIELDS.payments.map((field) => [field, recorded?.[field] ?? null])) as Record<
      string,
      JsonValue
    >;
    a.doc.transact(() => writeEntity(a.doc, 'payments', ids.payment!, { ...fields, amount: '0.01' }));
    await untilSaved(a);
    expect(entity(a, 'payments', ids.payment!)).toBeUndefined();
    expect(a.notices).toContainEqual(
      expect.objectContaining({ id: ids.payment, action: 'removed', reason: 'A payment cannot be changed once recorded' }),
    );
    expect((await list('payments')).map((payment) => payment.amount)).toEqual(['500.00']);
  });

  it('[S11] [O9] brings back a horse and buyer a sale refers to; the sale and its payments stay recorded', async () => {
    const a = await device();
    a.doc.transact(() => {
      deleteEntity(a.doc, 'horses', ids.horse!);
      deleteEntity(a.doc, 'buyers', ids.buyer!);
    });
    await expect
      .poll(() => [entity(a, 'horses', ids.horse!)?.name, entity(a, 'buyers', ids.buyer!)?.firstName])
      .toEqual(['Goliath', 'Bea']);
    expect((await list('sales')).map((sale) => [sale.id, sale.salePrice])).toEqual([[ids.sale, '9000.00']]);
    expect((await list('payments')).map((payment) => [payment.id, payment.amount])).toEqual([[ids.payment, '500.00']]);
  });

  it('[P8] refuses a payment above the balance over REST, saying it; one synced from a device is kept as a credit', async () => {
    const horseId = await create('/api/horses', { name: 'Credit', breedId: ids.breed, colorId: ids.color, genderId: ids.gender });
    const saleId = await create('/api/sales', { horseId, buyerId: ids.buyer, salePrice: '9224.44', termsMonths: 3 });
    const standing = async () => (await list('sales')).find((sale) => sale.id === saleId);
    const over = await staff.request('/api/payments', {
      method: 'POST',
      json: { saleId, amount: '20000', date: '2026-01-15', method: 'Check' },
    });
    expect([over.status, (await over.json()).message]).toEqual([409, 'Amount is more than the balance of $9,224.44']);
    expect(await standing()).toMatchObject({ status: 'Open', paid: '0.00', balance: '9224.44', credit: '0.00' });

    // A device that did not know of another payment: the money was received, so it is kept.
    await create('/api/payments', { saleId, amount: '9000', date: '2026-01-16', method: 'Cash' });
    const a = await device();
    const paymentId = newId();
    a.doc.transact(() =>
      writeEntity(a.doc, 'payments', paymentId, {
        saleId,
        amount: '1000',
        date: '2026-01-16',
        method: 'Check',
        memo: null,
        installmentId: null,
        createdAt: new Date().toISOString(),
      }),
    );
    await untilSaved(a);
    expect(entity(a, 'payments', paymentId)).toBeUndefined();
    expect((await list('payments')).find((payment) => payment.id === paymentId)?.amount).toBe('1000.00');
    expect(await standing()).toMatchObject({ status: 'Paid', paid: '10000.00', balance: '0.00', credit: '775.56' });
  });

  it("[I6] refuses a horse photo that is not this ranch's: REST 400, the socket writes it back", async () => {
    const ours = `/api/objects/${newId()}`;
    const horse = { name: 'Pixel', breedId: ids.breed, colorId: ids.color, genderId: ids.gender };
    for (const photoUrl of ['https://tracker.example/pixel.gif?who=office', '/api/logout', '/api/objects/../logout', `outbox:x`]) {
      const response = await staff.request('/api/horses', { method: 'POST', json: { ...horse, photoUrl } });
      expect(response.status, photoUrl).toBe(400);
      expect(await response.text()).toContain('Photo must be one uploaded to this ranch');
    }
    const id = await create('/api/horses', { ...horse, photoUrl: ours });
    const edit = await staff.request(`/api/horses/${id}`, { method: 'PUT', json: { ...horse, photoUrl: '/api/logout' } });
    expect(edit.status).toBe(400);

    const a = await device();
    a.doc.transact(() => (collectionMap(a.doc, 'horses').get(id) as unknown as Y.Map<unknown>).set('photoUrl', '/api/logout'));
    await untilSaved(a);
    expect(entity(a, 'horses', id)?.photoUrl).toBe(ours);
    expect(a.notices).toContainEqual(expect.objectContaining({ id, action: 'reverted', fields: { photoUrl: ours } }));
    expect((await list('horses')).find((row) => row.id === id)?.photoUrl).toBe(ours);
  });

  it('keeps when a record was created', async () => {
    const a = await device();
    const createdAt = entity(a, 'owners', ids.owner!)?.createdAt;
    a.doc.transact(() => {
      const owner = collectionMap(a.doc, 'owners').get(ids.owner!) as unknown as Y.Map<unknown>;
      owner.set('createdAt', '1999-01-01T00:00:00.000Z');
      owner.set('phone', '555-0100');
    });
    await untilSaved(a);
    expect(entity(a, 'owners', ids.owner!)).toMatchObject({ createdAt, phone: '555-0100' });
  });

  it('[O9] [O7] brings back a supplier a horse still names, with a notice to the device that deleted it', async () => {
    const a = await device();
    a.doc.transact(() => deleteEntity(a.doc, 'owners', ids.owner!));
    await expect.poll(() => entity(a, 'owners', ids.owner!)?.firstName).toBe('Olga');
    expect(a.notices).toContainEqual(
      expect.objectContaining({ collection: 'owners', id: ids.owner, action: 'restored', reason: 'In use: 1 record refers to it' }),
    );
  });
});

describe.each(databaseKinds())('a document stored under older rules (%s)', (kind) => {
  let server: TestServer;

  afterAll(() => server.destroy());

  it('[Y6] is checked whole once when loaded: what the rules refuse is compensated and logged, the rest kept', async () => {
    server = await startTestServer(kind);
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    const breedId = await createdId(admin, '/api/breeds', { name: 'Kept' });
    const lookups = {
      colorId: await createdId(admin, '/api/colors', { name: 'Bay' }),
      genderId: await createdId(admin, '/api/genders', { name: 'Mare' }),
    };
    const horse = { breedId, ...lookups, name: 'Old Price', priceUsd: '100' };
    const [cut, stripped] = [await createdId(admin, '/api/horses', horse), await createdId(admin, '/api/horses', horse)];
    // What an older server stored: garbage appended to the log behind the host's back.
    const reader = connectDevice(server.url, admin.cookie);
    await whenSynced(reader);
    const stored = new Y.Doc();
    Y.applyUpdate(stored, Y.encodeStateAsUpdate(reader.doc));
    reader.destroy();
    const before = Y.encodeStateVector(stored);
    stored.transact(() => {
      collectionMap(stored, 'horses').set('not-an-id', new Y.Map() as never);
      collectionMap(stored, 'owners').set(newId(), 'a string' as never);
      stored.getText('junk').insert(0, 'x'.repeat(10_000));
      // [S14] What the earlier rules read by cutting or stripping: kept as the amount they read.
      collectionMap(stored, 'horses').get(cut)?.set('priceUsd', '12.345');
      collectionMap(stored, 'horses').get(stripped)?.set('priceUsd', 12_500.999);
    });
    const garbage = Y.encodeStateAsUpdate(stored, before);
    await server.db.sql.begin(async (tx) => {
      const [row] = await tx<
        { last_seq: string }[]
      >`update docs set last_seq = last_seq + 1, checked_rules = 0 where name = 'ranch' returning last_seq`;
      await tx`insert into doc_updates (doc, seq, update, user_id) values ('ranch', ${row!.last_seq}, ${garbage}, null)`;
    });
    server = await server.restart();

    const fresh = connectDevice(server.url, admin.cookie);
    await whenSynced(fresh);
    const invalid = COLLECTIONS.flatMap((collection) =>
      [...collectionMap(fresh.doc, collection).entries()].filter(([key, value]) => !readRecord(collection, key, value).valid),
    );
    expect(invalid).toEqual([]);
    expect(fresh.doc.getText('junk').toString()).toBe('');
    expect(getEntity(fresh.doc, 'breeds', breedId)?.name).toBe('Kept');
    expect([getEntity(fresh.doc, 'horses', cut)?.priceUsd, getEntity(fresh.doc, 'horses', stripped)?.priceUsd]).toEqual([
      '12.34',
      '12501.00',
    ]);
    const rows = await server.db
      .sql`select price_usd::text as price from horses where id in ${server.db.sql([cut, stripped])} order by price`;
    expect(rows.map((row) => row.price)).toEqual(['12.34', '12501.00']);
    fresh.destroy();
    expect((await server.db.sql`select checked_rules from docs where name = 'ranch'`)[0]?.checked_rules).toBe(SYNC_RULES_VERSION);
  }, 90_000);
});
