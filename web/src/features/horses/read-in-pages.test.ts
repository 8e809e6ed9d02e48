import 'fake-indexeddb/auto';
import { liveQuery } from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Horse } from '../../../../shared/index.ts';
import { openRanchDb, type RanchDb } from '../../data/db.ts';
import { byNameThenId, readByNameInPages, sharedStrings, sortedRuns } from './read-in-pages.ts';

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

  it('keeps every reference as stored, one string per value, and adds no field a row lacks', async () => {
    db = openRanchDb(`pages-${Date.now()}`);
    const ids = ['0190a000-0000-7000-8000-00000000000a', '0190a000-0000-7000-8000-00000000000b'];
    const horses = Array.from({ length: 25 }, (_, i) => ({
      id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      name: `Horse ${String(i).padStart(2, '0')}`,
      breedId: ids[i % 2],
      colorId: ids[(i + 1) % 2],
      statusId: i % 3 === 0 ? null : ids[0],
      ...(i === 7 ? {} : { ownerId: ids[1] }),
    }));
    await db.horses.bulkPut(horses as never[]);
    const read = await readByNameInPages(db, 10);
    expect(read).toStrictEqual(horses);
    expect('ownerId' in read[7]!).toBe(false);
  });

  it('[H2] hands over the rows read so far after each page, in name order, for a search before the list is in', async () => {
    db = openRanchDb(`pages-${Date.now()}`);
    const horses = Array.from({ length: 25 }, (_, i) => ({
      id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      name: `Horse ${String(99 - i).padStart(2, '0')}`,
    }));
    await db.horses.bulkPut(horses as never[]);
    const handed: string[][] = [];
    const whole = await readByNameInPages(db, 10, (soFar) => handed.push(soFar.inNameOrder().map((horse) => horse.name)));
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

describe('the rows read so far, kept in sorted runs', () => {
  it('[H1] puts any number of pages in name order, whenever asked, as one sort of them all would', () => {
    // 1,000 horses in pages of 7 (not a power of two), names repeating across pages.
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647);
    const horses = Array.from({ length: 1000 }, (_, i) => ({
      id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      name: `Horse ${random() % 300}`,
    })) as never as Horse[];
    const soFar = sortedRuns();
    for (let at = 0; at < horses.length; at += 7) {
      soFar.add(horses.slice(at, at + 7).sort(byNameThenId));
      const read = horses.slice(0, at + 7);
      expect(soFar.count).toBe(read.length);
      // Asked only now and then, as a search typed during the read asks.
      if (at % 91 === 0) expect(soFar.inNameOrder()).toEqual([...read].sort(byNameThenId));
    }
    const whole = soFar.inNameOrder();
    expect(whole.map((horse) => horse.id)).toEqual([...horses].sort(byNameThenId).map((horse) => horse.id));
    // Asked again with nothing new: the very same array.
    expect(soFar.inNameOrder()).toBe(whole);
  });
});

/** 25 horses whose names follow their ids, so pages of 10 are horses 0–9, 10–19, 20–24. */
async function storeHorsesInIdOrder(ranch: RanchDb): Promise<{ id: string; name: string }[]> {
  const horses = Array.from({ length: 25 }, (_, i) => ({
    id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    name: `Horse ${String(i).padStart(2, '0')}`,
  }));
  await ranch.horses.bulkPut(horses as never[]);
  return horses;
}

describe('the whole horse list, read behind more urgent work', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks for the next page only at a background-priority turn, so a tap or a save goes first', async () => {
    db = openRanchDb(`pages-turn-${Date.now()}`);
    const horses = await storeHorsesInIdOrder(db);
    const turns: { priority: string; take: () => void }[] = [];
    vi.stubGlobal('scheduler', {
      postTask: (task: () => void, { priority }: { priority: string }) =>
        new Promise<void>((resolve) => turns.push({ priority, take: () => resolve(task()) })),
    });
    const pages: number[] = [];
    const read = readByNameInPages(db, 10, (soFar) => pages.push(soFar.count));
    await vi.waitFor(() => expect(turns).toHaveLength(1));
    expect(turns[0]!.priority).toBe('background');
    // Nothing more is read until the browser gives the background its turn.
    expect(pages).toEqual([10]);
    turns[0]!.take();
    await vi.waitFor(() => expect(turns).toHaveLength(2));
    expect(pages).toEqual([10, 20]);
    turns[1]!.take();
    expect((await read).map((horse) => horse.name)).toEqual(horses.map((horse) => horse.name));
  });
});

describe('the whole horse list as a live query', () => {
  it('follows a change to a horse on any page, the last one included, after waiting for the browser between pages', async () => {
    db = openRanchDb(`pages-live-${Date.now()}`);
    const horses = await storeHorsesInIdOrder(db);
    const ranch = db;
    const seen: string[][] = [];
    const subscription = liveQuery(() => readByNameInPages(ranch, 10)).subscribe((rows) => seen.push(rows.map((horse) => horse.name)));
    try {
      await vi.waitFor(() => expect(seen).toHaveLength(1));
      // The second page and the last one: read after a wait for the browser.
      await ranch.horses.update(horses[12]!.id, { name: 'Horse 12 renamed' });
      await vi.waitFor(() => expect(seen.at(-1)).toContain('Horse 12 renamed'));
      await ranch.horses.update(horses[24]!.id, { name: 'Horse 24 renamed' });
      await vi.waitFor(() => expect(seen.at(-1)).toContain('Horse 24 renamed'));
      expect(seen.at(-1)).toHaveLength(25);
    } finally {
      subscription.unsubscribe();
    }
  });
});

describe('sharedStrings', () => {
  it('gives back each value unchanged, whether seen before or not', () => {
    const shared = sharedStrings();
    const first = ['0190a000-0000-7000-8000-00000000000', 'a'].join('');
    expect(shared(first)).toBe(first);
    expect(shared('0190a000-0000-7000-8000-00000000000a')).toBe(first);
    expect(shared('0190a000-0000-7000-8000-00000000000b')).toBe('0190a000-0000-7000-8000-00000000000b');
  });
});
