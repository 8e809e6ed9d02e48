import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { collectionMap, MONEY_MESSAGES, writeEntity, type EntityFields } from '../../../shared/index.ts';
import { openRanchDb, type RanchDb } from './db.ts';
import { SPLIT_FROM_ROWS, startProjection, type Projection } from './projection.ts';
import { applyFromOtherDevice } from '../../test/ranch-data.ts';

const id = (n: number) => `0190b000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const BREED = id(1);
const COLOR = id(2);
const GENDER = id(3);
const OWNER = id(4);
const HORSE = id(10);
const BUYER = id(20);
const SALE = id(30);
const PAYMENTS = [id(40), id(41)];
const BAD_PAYMENT = id(42);
const CREATED = '2024-03-01T10:00:00.000Z';

const horse = (name: string) => ({
  name,
  breedId: BREED,
  colorId: COLOR,
  genderId: GENDER,
  statusId: null,
  ownerId: OWNER,
  birthdate: '2019-04-01',
  ageYears: 5,
  priceUsd: '12500.00',
  photoUrl: null,
  notes: null,
});
const owner = { firstName: 'Ann', lastName: 'Supplier', phone: null, email: null, createdAt: CREATED };
const buyer = { firstName: 'Ada', lastName: 'Rider', phone: null, email: null };
const sale = {
  horseId: HORSE,
  buyerId: BUYER,
  salePrice: '20000.00',
  downPayment: '1000.00',
  termsMonths: 12,
  interestApr: 5,
  scheduleStartDate: '2024-01-15',
  createdAt: CREATED,
};
const payment = (amount: string) => ({
  saleId: SALE,
  amount,
  date: '2024-03-01',
  method: 'Cash',
  memo: null,
  installmentId: null,
  createdAt: CREATED,
});

/** The valid part of the ranch: one of each, and a sale with two payments. */
function writeValid(doc: Y.Doc): void {
  doc.transact(() => {
    writeEntity(doc, 'breeds', BREED, { name: 'Arabian', isActive: true });
    writeEntity(doc, 'colors', COLOR, { name: 'Bay', isActive: true });
    writeEntity(doc, 'genders', GENDER, { name: 'Mare', isActive: true });
    writeEntity(doc, 'owners', OWNER, owner);
    writeEntity(doc, 'horses', HORSE, horse('Thunder'));
    writeEntity(doc, 'buyers', BUYER, buyer);
    writeEntity(doc, 'sales', SALE, sale);
    PAYMENTS.forEach((payment_, i) => writeEntity(doc, 'payments', payment_, payment(`${i + 1}00.00`)));
  });
}

const mapOf = (fields: Record<string, unknown>): Y.Map<unknown> => {
  const map = new Y.Map<unknown>();
  for (const [field, value] of Object.entries(fields)) map.set(field, value);
  return map;
};

/** What a stock Yjs client can put under the public layout: 11 entities, none a valid record. */
function writeMalformed(doc: Y.Doc): void {
  const set = (collection: 'owners' | 'horses' | 'breeds', key: string, value: unknown) =>
    collectionMap(doc, collection).set(key, value as never);
  doc.transact(() => {
    set('owners', id(100), 'a string');
    set('owners', id(101), 42);
    set('breeds', id(102), null);
    set('horses', id(103), new Y.Text('Thunder'));
    set('horses', id(104), new Y.Array());
    set('horses', id(105), mapOf(horse('No id')));
    set('horses', id(106), mapOf({ ...horse('Impostor'), id: HORSE }));
    set('horses', 'not-a-uuid', mapOf({ ...horse('Bad key'), id: 'not-a-uuid' }));
    set('horses', id(108), mapOf({ ...horse('Unknown field'), id: id(108), wings: 2 }));
    const deep = mapOf({ ...horse('Deep'), id: id(109) });
    set('horses', id(109), deep);
    let parent = deep;
    for (let depth = 0; depth < 5000; depth++) {
      const inner = new Y.Map<unknown>();
      parent.set('notes', inner);
      parent = inner;
    }
    writeEntity(doc, 'payments', BAD_PAYMENT, payment('abc'));
  });
}

const MALFORMED_KEYS = [
  ['owners', id(100)],
  ['owners', id(101)],
  ['breeds', id(102)],
  ['horses', id(103)],
  ['horses', id(104)],
  ['horses', id(105)],
  ['horses', id(106)],
  ['horses', 'not-a-uuid'],
  ['horses', id(108)],
  ['horses', id(109)],
  ['payments', BAD_PAYMENT],
].sort();

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
  vi.restoreAllMocks();
});

let seq = 0;
function setup() {
  const doc = new Y.Doc();
  const db = openRanchDb(`projection-untrusted-${++seq}`);
  cleanups.push(() => db.delete());
  return { doc, db };
}

function project(doc: Y.Doc, db: RanchDb, retryFirstMs = 10): Projection {
  const projection = startProjection(doc, db, Promise.resolve(), { retryFirstMs });
  cleanups.push(() => projection.stop());
  return projection;
}

const row = (key: string, fields: Record<string, unknown>) => ({ ...fields, id: key });

/** Every table holds exactly the valid part of the ranch. */
async function expectValidRows(db: RanchDb, horseName = 'Thunder'): Promise<void> {
  expect(await db.breeds.toArray()).toEqual([row(BREED, { name: 'Arabian', isActive: true })]);
  expect(await db.colors.toArray()).toEqual([row(COLOR, { name: 'Bay', isActive: true })]);
  expect(await db.genders.toArray()).toEqual([row(GENDER, { name: 'Mare', isActive: true })]);
  expect(await db.statuses.count()).toBe(0);
  expect(await db.owners.toArray()).toEqual([row(OWNER, owner)]);
  expect(await db.horses.toArray()).toEqual([row(HORSE, horse(horseName))]);
  expect(await db.buyers.toArray()).toEqual([row(BUYER, buyer)]);
  expect(await db.sales.toArray()).toEqual([row(SALE, { ...sale, previousStatusId: null })]);
  expect(await db.salePayments.toArray()).toEqual([
    { saleId: SALE, payments: [row(PAYMENTS[0]!, payment('100.00')), row(PAYMENTS[1]!, payment('200.00'))] },
  ]);
}

const invalidKeys = (projection: Projection) =>
  projection
    .invalid()
    .map((entity) => [entity.collection, entity.key])
    .sort();

describe('[O8] projecting a document written by untrusted clients', () => {
  it('at start: projects every valid row, leaves each malformed entity out and counts it, and keeps projecting', async () => {
    const { doc, db } = setup();
    writeValid(doc);
    writeMalformed(doc);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const projection = project(doc, db);
    await projection.ready;

    await expectValidRows(db);
    expect(invalidKeys(projection)).toEqual(MALFORMED_KEYS);
    expect(projection.invalidCount.get()).toEqual({ invalid: 11 });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/^Projection: 11 records/);

    // The user's own edit after the bad data still reaches the table.
    doc.transact(() => writeEntity(doc, 'horses', HORSE, { name: 'Thunderbolt' }));
    await projection.idle();
    await expectValidRows(db, 'Thunderbolt');
  });

  it('from another device: the same malformed entities arriving later change no valid row and stop nothing', async () => {
    const { doc, db } = setup();
    writeValid(doc);
    const projection = project(doc, db);
    await projection.ready;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    applyFromOtherDevice(doc, writeMalformed);
    await projection.idle();
    await expectValidRows(db);
    expect(invalidKeys(projection)).toEqual(MALFORMED_KEYS);
    expect(projection.invalidCount.get()).toEqual({ invalid: 11 });
    expect(warn).toHaveBeenCalledTimes(1);

    doc.transact(() => writeEntity(doc, 'horses', HORSE, { name: 'Thunderbolt' }));
    await projection.idle();
    await expectValidRows(db, 'Thunderbolt');
    expect(warn).toHaveBeenCalledTimes(1);

    // Removing the bad entities (as a cleanup by another client would) clears their count.
    // Not the deep one: Yjs itself overflows the stack collecting a 5,000-deep deleted map.
    const deep = id(109);
    applyFromOtherDevice(doc, (other) =>
      other.transact(() =>
        MALFORMED_KEYS.filter(([, key]) => key !== deep).forEach(([collection, key]) => other.getMap(collection!).delete(key!)),
      ),
    );
    await projection.idle();
    expect(invalidKeys(projection)).toEqual([['horses', deep]]);
    expect(projection.invalidCount.get()).toEqual({ invalid: 1 });
  });

  it('a first sync large enough to be read in time slices leaves the malformed entities out too', async () => {
    const { doc, db } = setup();
    const projection = project(doc, db);
    await projection.ready;
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const foals = Array.from({ length: SPLIT_FROM_ROWS }, (_, i) => id(1000 + i));
    applyFromOtherDevice(doc, (other) => {
      writeValid(other);
      writeMalformed(other);
      other.transact(() => foals.forEach((foal, i) => writeEntity(other, 'horses', foal, horse(`Foal ${i}`))));
    });
    await projection.idle();
    expect(await db.horses.count()).toBe(SPLIT_FROM_ROWS + 1);
    expect(await db.horses.get(HORSE)).toEqual(row(HORSE, horse('Thunder')));
    expect(await db.horses.get(foals.at(-1)!)).toEqual(row(foals.at(-1)!, horse(`Foal ${SPLIT_FROM_ROWS - 1}`)));
    expect(await db.salePayments.toArray()).toEqual([
      { saleId: SALE, payments: [row(PAYMENTS[0]!, payment('100.00')), row(PAYMENTS[1]!, payment('200.00'))] },
    ]);
    expect(invalidKeys(projection)).toEqual(MALFORMED_KEYS);
  });

  it('an entity valid, then invalid, then valid again: row present, absent, present', async () => {
    const { doc, db } = setup();
    writeValid(doc);
    const projection = project(doc, db);
    await projection.ready;
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const setPrice = (price: unknown) =>
      applyFromOtherDevice(doc, (other) =>
        other.transact(() =>
          collectionMap(other, 'horses')
            .get(HORSE)!
            .set('priceUsd', price as never),
        ),
      );

    setPrice('abc');
    await projection.idle();
    expect(await db.horses.count()).toBe(0);
    expect(projection.invalid()).toEqual([{ collection: 'horses', key: HORSE, problem: `priceUsd: ${MONEY_MESSAGES.notAnAmount}` }]);

    setPrice(9000);
    await projection.idle();
    expect(await db.horses.toArray()).toEqual([row(HORSE, { ...horse('Thunder'), priceUsd: '9000.00' })]);
    expect(projection.invalid()).toEqual([]);

    // The same for a payment: it leaves its sale's row and comes back.
    const setAmount = (amount: string) =>
      applyFromOtherDevice(doc, (other) => other.transact(() => writeEntity(other, 'payments', PAYMENTS[0]!, { amount })));
    setAmount('-5');
    await projection.idle();
    expect(await db.salePayments.toArray()).toEqual([{ saleId: SALE, payments: [row(PAYMENTS[1]!, payment('200.00'))] }]);
    setAmount('100');
    await projection.idle();
    expect(await db.salePayments.toArray()).toEqual([
      { saleId: SALE, payments: [row(PAYMENTS[0]!, payment('100.00')), row(PAYMENTS[1]!, payment('200.00'))] },
    ]);
    expect(projection.invalidCount.get()).toEqual({ invalid: 0 });
  });

  it('a payment whose saleId is not a string is left out; its old sale row loses it', async () => {
    const { doc, db } = setup();
    writeValid(doc);
    const projection = project(doc, db);
    await projection.ready;
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    applyFromOtherDevice(doc, (other) => other.transact(() => collectionMap(other, 'payments').get(PAYMENTS[1]!)!.set('saleId', 7)));
    await projection.idle();
    expect(await db.salePayments.toArray()).toEqual([{ saleId: SALE, payments: [row(PAYMENTS[0]!, payment('100.00'))] }]);
    expect(invalidKeys(projection)).toEqual([['payments', PAYMENTS[1]]]);
  });
});

describe('rows written before the projection validated', () => {
  it('are not rewritten on start when only their key order differs (the document order, id first)', async () => {
    const { doc, db } = setup();
    writeValid(doc);
    const documentOrder = (key: string, fields: Record<string, unknown>) => ({ id: key, ...fields });
    await db.horses.put(documentOrder(HORSE, horse('Thunder')) as never);
    await db.salePayments.put({ saleId: SALE, payments: PAYMENTS.map((key, i) => documentOrder(key, payment(`${i + 1}00.00`))) as never });
    const written: string[] = [];
    for (const table of [db.horses, db.salePayments] as const) {
      table.hook('creating', (key) => void written.push(String(key)));
      table.hook('updating', (_changes, key) => void written.push(String(key)));
    }
    await project(doc, db).ready;
    expect(written).toEqual([]);
    await expectValidRows(db);
  });
});

describe('a failed write does not freeze the tables', () => {
  const quota = () => new DOMException('The quota has been exceeded', 'QuotaExceededError');

  it('a row IndexedDB refuses is counted; the rest of its batch and later changes are stored', async () => {
    const { doc, db } = setup();
    const projection = project(doc, db, 60_000);
    await projection.ready;
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const REFUSED = id(11);
    // The projection writes through db.table(name), not the same object as db.horses.
    const horses = db.table<EntityFields, string>('horses');
    const bulkPut = horses.bulkPut.bind(horses);
    vi.spyOn(horses, 'bulkPut').mockImplementation(((rows: readonly EntityFields[]) =>
      rows.some((r) => r.id === REFUSED) ? Promise.reject(new DOMException('Refused', 'DataError')) : bulkPut(rows as never)) as never);

    applyFromOtherDevice(doc, writeValid);
    applyFromOtherDevice(doc, (other) =>
      other.transact(() => [id(12), REFUSED, id(13)].forEach((key, i) => writeEntity(other, 'horses', key, horse(`Foal ${i}`)))),
    );
    await projection.idle();
    expect((await db.horses.toCollection().primaryKeys()).sort()).toEqual([HORSE, id(12), id(13)]);
    expect(projection.invalid()).toEqual([{ collection: 'horses', key: REFUSED, problem: 'not stored: DataError' }]);

    doc.transact(() => writeEntity(doc, 'horses', HORSE, { name: 'Thunderbolt' }));
    await projection.idle();
    expect(await db.horses.get(HORSE)).toEqual(row(HORSE, horse('Thunderbolt')));
  });

  it('a first sync whose first chunk is refused while the next is being written: every other row is stored', async () => {
    const { doc, db } = setup();
    const projection = project(doc, db, 60_000);
    await projection.ready;
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const foals = Array.from({ length: SPLIT_FROM_ROWS }, (_, i) => id(1000 + i));
    const REFUSED = foals[3]!;
    const horses = db.table<EntityFields, string>('horses');
    const bulkPut = horses.bulkPut.bind(horses);
    let chunks = 0;
    vi.spyOn(horses, 'bulkPut').mockImplementation(((rows: readonly EntityFields[]) => {
      chunks++;
      return rows.some((r) => r.id === REFUSED) ? Promise.reject(new DOMException('Refused', 'DataError')) : bulkPut(rows as never);
    }) as never);
    applyFromOtherDevice(doc, (other) => {
      writeValid(other);
      other.transact(() => foals.forEach((foal, i) => writeEntity(other, 'horses', foal, horse(`Foal ${i}`))));
    });
    await projection.idle();
    // Several chunks were sent, the refusal failed the transaction, and the rows were written apart.
    expect(chunks).toBeGreaterThan(2);
    expect(await db.horses.count()).toBe(SPLIT_FROM_ROWS);
    expect(await db.horses.get(REFUSED)).toBeUndefined();
    expect(await db.horses.get(foals.at(-1)!)).toEqual(row(foals.at(-1)!, horse(`Foal ${SPLIT_FROM_ROWS - 1}`)));
    expect(await db.salePayments.count()).toBe(1);
    expect(projection.invalid()).toEqual([{ collection: 'horses', key: REFUSED, problem: 'not stored: DataError' }]);
  });

  it('when no write succeeds (quota), later changes are still written and a reconcile with backoff catches up', async () => {
    const { doc, db } = setup();
    const projection = project(doc, db, 200);
    await projection.ready;
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(db, 'transaction').mockRejectedValueOnce(quota());
    vi.spyOn(db.table('breeds'), 'bulkPut').mockRejectedValueOnce(quota());

    doc.transact(() => writeEntity(doc, 'breeds', BREED, { name: 'Arabian', isActive: true }));
    await projection.idle();
    expect(await db.breeds.count()).toBe(0);
    expect(error).toHaveBeenCalledTimes(1);

    // The next change is written at once, and the backoff's reconcile writes the lost one.
    doc.transact(() => writeEntity(doc, 'colors', COLOR, { name: 'Bay', isActive: true }));
    await projection.idle();
    expect(await db.colors.toArray()).toEqual([row(COLOR, { name: 'Bay', isActive: true })]);
    await expect.poll(() => db.breeds.toArray()).toEqual([row(BREED, { name: 'Arabian', isActive: true })]);
    expect(error).toHaveBeenCalledTimes(1);
  });
});
