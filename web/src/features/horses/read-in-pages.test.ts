import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openRanchDb, type RanchDb } from '../../data/db.ts';
import { readByNameInPages } from './read-in-pages.ts';

let db: RanchDb | undefined;
afterEach(async () => {
  await db?.delete();
});

describe('the whole horse list read in pages', () => {
  it('[H1] returns every horse in name order, ties and page edges included, as one read would', async () => {
    db = openRanchDb(`pages-${Date.now()}`);
    // 25 horses, names repeating so that equal names straddle the pages of 10.
    const horses = Array.from({ length: 25 }, (_, i) => ({
      id: `0190a000-0000-7000-8000-${String(1000 - i).padStart(12, '0')}`,
      name: `Horse ${String(Math.floor(i / 3)).padStart(2, '0')}`,
    }));
    await db.horses.bulkPut(horses as never[]);
    const paged = await readByNameInPages(db, 10);
    const whole = await db.horses.orderBy('name').toArray();
    expect(paged.map((horse) => horse.id)).toEqual(whole.map((horse) => horse.id));
    expect(paged).toHaveLength(25);
    expect(await readByNameInPages(db, 5)).toHaveLength(25);
  });

  it('[H2] hands over the rows read so far after each page, in name order, for a search before the list is in', async () => {
    db = openRanchDb(`pages-${Date.now()}`);
    const horses = Array.from({ length: 25 }, (_, i) => ({
      id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      name: `Horse ${String(99 - i).padStart(2, '0')}`,
    }));
    await db.horses.bulkPut(horses as never[]);
    const handed: string[][] = [];
    const whole = await readByNameInPages(db, 10, (rows) => handed.push(rows.map((horse) => horse.name)));
    // Pages of 10 by id: the first 10 ids, then 20; the last page completes the list instead.
    expect(handed).toEqual([
      horses
        .slice(0, 10)
        .map((horse) => horse.name)
        .reverse(),
      horses
        .slice(0, 20)
        .map((horse) => horse.name)
        .reverse(),
    ]);
    expect(whole.map((horse) => horse.name)).toEqual(horses.map((horse) => horse.name).reverse());
  });

  it("hands over each page's own rows once, the very objects the whole list then holds", async () => {
    db = openRanchDb(`pages-${Date.now()}`);
    const horses = Array.from({ length: 25 }, (_, i) => ({
      id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      name: `Horse ${String(99 - i).padStart(2, '0')}`,
    }));
    await db.horses.bulkPut(horses as never[]);
    const pages: object[][] = [];
    const whole = await readByNameInPages(db, 10, (_rows, page) => pages.push(page));
    // Two pages of 10 handed over; the last 5 complete the list.
    expect(pages.map((page) => page.length)).toEqual([10, 10]);
    const handed = pages.flat();
    expect(new Set(handed).size).toBe(20);
    const held = new Set<object>(whole);
    expect(handed.every((horse) => held.has(horse))).toBe(true);
  });
});
