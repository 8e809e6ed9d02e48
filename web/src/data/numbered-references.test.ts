import 'fake-indexeddb/auto';
import Dexie, { liveQuery } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { Horse } from '../../../shared/index.ts';
import { openRanchDb, type RanchDb } from './db.ts';
import { REFERENCE_NUMBERS } from './numbered-references.ts';

const opened: Dexie[] = [];
afterEach(async () => {
  const names = new Set(opened.map((db) => db.name));
  for (const db of opened.splice(0)) db.close();
  for (const name of names) await Dexie.delete(name);
});

let seq = 0;
/** Two connections to one new read database, as the data worker and a page have. */
function connections(): [RanchDb, RanchDb] {
  const name = `numbered-references-${Date.now()}-${++seq}`;
  const worker = openRanchDb(name);
  const page = openRanchDb(name);
  opened.push(worker, page);
  return [worker, page];
}

const ID = (n: number) => `0190a0a0-0000-7000-8000-${String(n).padStart(12, '0')}`;
const BAY = ID(1);
const GREY = ID(2);
const ARABIAN = ID(3);
const MARE = ID(4);
const FOR_SALE = ID(5);
const SUPPLIER = ID(6);

function horse(n: number, name: string, fields: Partial<Horse> = {}): Horse {
  return {
    id: ID(100 + n),
    name,
    breedId: ARABIAN,
    colorId: BAY,
    genderId: MARE,
    statusId: null,
    ownerId: SUPPLIER,
    birthdate: null,
    ageYears: 7,
    priceUsd: '12500.00',
    photoUrl: null,
    notes: null,
    ...fields,
  };
}

/** The rows as IndexedDB holds them: read by a connection without the middleware (Dexie's dynamic mode). */
async function stored(db: RanchDb): Promise<{ horses: Record<string, unknown>[]; numbers: { n: number; id: string }[] }> {
  const raw = new Dexie(db.name);
  try {
    await raw.open();
    return { horses: await raw.table('horses').toArray(), numbers: await raw.table(REFERENCE_NUMBERS).toArray() };
  } finally {
    raw.close();
  }
}

describe("the horses' references to lookup items, stored as numbers", () => {
  it('stores a number for each lookup item and reads the horse back as written, by every read the screens make', async () => {
    const [db] = connections();
    const comet = horse(1, 'Comet', { statusId: FOR_SALE });
    const dusk = horse(2, 'Dusk', { colorId: GREY, ownerId: null });
    await db.horses.bulkPut([comet, dusk]);

    const { horses, numbers } = await stored(db);
    const numberOf = new Map(numbers.map((row) => [row.id, row.n]));
    expect(numberOf.size).toBe(5);
    const raw = horses.find((row) => row.id === comet.id)!;
    expect(raw).toEqual({
      ...comet,
      breedId: numberOf.get(ARABIAN),
      colorId: numberOf.get(BAY),
      genderId: numberOf.get(MARE),
      statusId: numberOf.get(FOR_SALE),
    });
    expect(horses.find((row) => row.id === dusk.id)).toMatchObject({
      breedId: numberOf.get(ARABIAN),
      colorId: numberOf.get(GREY),
      statusId: null,
      ownerId: null,
    });
    expect(comet.breedId).toBe(ARABIAN);

    expect(await db.horses.get(comet.id)).toEqual(comet);
    expect(await db.horses.bulkGet([dusk.id, ID(999), comet.id])).toEqual([dusk, undefined, comet]);
    expect(await db.horses.orderBy('name').toArray()).toEqual([comet, dusk]);
    expect(
      await db.horses
        .where('ownerId')
        .anyOf([SUPPLIER, ID(998)])
        .toArray(),
    ).toEqual([comet]);
    expect(await db.horses.where('ownerId').equals(SUPPLIER).sortBy('name')).toEqual([comet]);
    expect(await db.horses.filter((row) => row.colorId === GREY).toArray()).toEqual([dusk]);
    const each: Horse[] = [];
    await db.horses.each((row) => void each.push(row));
    expect(each).toEqual([comet, dusk]);

    await db.horses.update(comet.id, { colorId: GREY, name: 'Comet II' });
    expect(await db.horses.get(comet.id)).toEqual({ ...comet, colorId: GREY, name: 'Comet II' });
    expect((await stored(db)).numbers).toHaveLength(5);
  });

  it("reads another connection's numbers, and gives an id one number whichever connection stores it first", async () => {
    const [worker, page] = connections();
    await worker.horses.put(horse(1, 'Comet'));
    expect(await page.horses.get(ID(101))).toEqual(horse(1, 'Comet'));

    await page.horses.put(horse(2, 'Dusk', { colorId: GREY }));
    expect(await worker.horses.get(ID(102))).toEqual(horse(2, 'Dusk', { colorId: GREY }));

    // Both store a horse of a breed neither has numbered, at once.
    const both = [worker.horses.put(horse(3, 'Ember', { breedId: ID(7) })), page.horses.put(horse(4, 'Flint', { breedId: ID(7) }))];
    await Promise.all(both);
    const { numbers } = await stored(worker);
    expect(numbers.filter((row) => row.id === ID(7))).toHaveLength(1);
    expect(numbers.map((row) => row.id).sort()).toEqual([BAY, GREY, ARABIAN, MARE, ID(7)].sort());
    expect((await page.horses.toArray()).map((row) => row.breedId)).toEqual([ARABIAN, ARABIAN, ID(7), ID(7)]);
    expect((await worker.horses.toArray()).map((row) => row.breedId)).toEqual([ARABIAN, ARABIAN, ID(7), ID(7)]);
  });

  it('stores two pieces sent at once in one transaction, both naming items with no number yet, as a first sync does', async () => {
    const [db] = connections();
    const first = [horse(1, 'Comet'), horse(2, 'Dusk', { colorId: GREY })];
    const second = [horse(3, 'Ember', { colorId: GREY }), horse(4, 'Flint', { breedId: ID(7) })];
    // The projection sends a piece's puts while IndexedDB still writes the piece before.
    await db.transaction('rw', db.horses, () => Promise.all([db.horses.bulkPut(first), db.horses.bulkPut(second)]));
    expect(await db.horses.toArray()).toEqual([...first, ...second]);
    const { numbers } = await stored(db);
    expect(numbers.map((row) => row.id).sort()).toEqual([BAY, GREY, ARABIAN, MARE, ID(7)].sort());
  });

  it('forgets a number given in a write that failed, so a number given again later reads as its new id', async () => {
    const [worker, page] = connections();
    await worker.horses.put(horse(1, 'Comet'));
    await expect(
      worker.transaction('rw', worker.horses, async () => {
        await worker.horses.put(horse(2, 'Dusk', { breedId: ID(8) }));
        throw new Error('the projection failed');
      }),
    ).rejects.toThrow('the projection failed');
    expect(await worker.horses.get(ID(102))).toBeUndefined();

    await page.horses.put(horse(3, 'Ember', { breedId: ID(9) }));
    expect(await worker.horses.get(ID(103))).toEqual(horse(3, 'Ember', { breedId: ID(9) }));
    await worker.horses.put(horse(4, 'Flint', { breedId: ID(8) }));
    expect(await page.horses.get(ID(104))).toEqual(horse(4, 'Flint', { breedId: ID(8) }));
    const { numbers } = await stored(page);
    expect(new Set(numbers.map((row) => row.n)).size).toBe(numbers.length);
  });

  it('refuses a write that puts a number in a reference, and stores none of it', async () => {
    const [db] = connections();
    await db.horses.put(horse(1, 'Comet'));
    const { numbers } = await stored(db);
    const arabian = numbers.find((row) => row.id === ARABIAN)!.n;
    // A number written as a reference would otherwise read back as the breed that has it.
    const forged = { ...horse(2, 'Dusk', { breedId: ID(7) }), colorId: arabian } as unknown as Horse;
    await expect(db.horses.bulkPut([horse(3, 'Ember'), forged])).rejects.toThrow('horses.colorId must be an id or null, not a number');
    expect((await db.horses.toArray()).map((row) => row.name)).toEqual(['Comet']);
    expect((await stored(db)).numbers).toHaveLength(numbers.length);
  });

  it("a page's live query of the horses hears the worker's write, with ids", async () => {
    const [worker, page] = connections();
    await worker.horses.put(horse(1, 'Comet'));
    const seen: Horse[][] = [];
    const subscription = liveQuery(() => page.horses.orderBy('name').toArray()).subscribe((rows) => seen.push(rows));
    try {
      await expect.poll(() => seen.at(-1)).toEqual([horse(1, 'Comet')]);
      await worker.horses.put(horse(2, 'Dusk', { breedId: ID(7), statusId: FOR_SALE }));
      await expect.poll(() => seen.at(-1)).toEqual([horse(1, 'Comet'), horse(2, 'Dusk', { breedId: ID(7), statusId: FOR_SALE })]);
    } finally {
      subscription.unsubscribe();
    }
  });
});
