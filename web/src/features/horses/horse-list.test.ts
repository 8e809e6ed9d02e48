import 'fake-indexeddb/auto';
import Dexie, { RangeSet } from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Horse } from '../../../../shared/index.ts';
import { openRanchDb, type RanchDb } from '../../data/db.ts';
import { keysOf, patchByName, watchHorseList } from './horse-list.ts';

let db: RanchDb | undefined;
let stop: (() => void) | undefined;
afterEach(async () => {
  stop?.();
  await db?.delete();
});

const id = (i: number) => `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`;
const horse = (i: number, name: string) => ({ id: id(i), name }) as Horse;
const named = (horses: readonly Horse[]) => horses.map((h) => h.name);

/** A watch on a new database of `count` horses named "Horse 00"…: its lists as they come, and how many whole reads it made. */
async function watched(count: number) {
  db = openRanchDb(`horse-list-${Date.now()}-${Math.random()}`);
  await db.horses.bulkPut(Array.from({ length: count }, (_, i) => horse(i, `Horse ${String(i).padStart(2, '0')}`)));
  const lists: Horse[][] = [];
  const begin = vi.fn(() => () => {});
  stop = watchHorseList(db, begin, (horses) => lists.push(horses));
  await vi.waitFor(() => expect(lists).toHaveLength(1));
  return { db, lists, begin, latest: () => lists.at(-1)! };
}

describe('the horse list kept up to date', () => {
  it('[H1] a horse added, renamed or deleted moves into its place without the whole list read again', async () => {
    const { db, lists, begin, latest } = await watched(30);
    expect(latest()).toHaveLength(30);

    await db.horses.put(horse(100, 'Horse 10b'));
    await vi.waitFor(() => expect(named(latest()).slice(10, 13)).toEqual(['Horse 10', 'Horse 10b', 'Horse 11']));
    await db.horses.update(id(0), { name: 'Zephyr' });
    await vi.waitFor(() => expect(latest().at(-1)?.name).toBe('Zephyr'));
    await db.horses.delete(id(5));
    await vi.waitFor(() => expect(named(latest())).not.toContain('Horse 05'));

    expect(latest()).toHaveLength(30);
    expect(named(latest())).toEqual([...named(latest())].sort());
    // Read whole once: every change since read only the horse it named.
    expect(begin).toHaveBeenCalledTimes(1);
    expect(lists.length).toBeGreaterThanOrEqual(4);
  });

  it('reads the whole list again for a change it cannot name horse by horse (50 rows in one write, a clear)', async () => {
    const { db, begin, latest } = await watched(10);
    await db.horses.bulkPut(Array.from({ length: 60 }, (_, i) => horse(200 + i, `Added ${String(i).padStart(2, '0')}`)));
    await vi.waitFor(() => expect(latest()).toHaveLength(70));
    expect(begin).toHaveBeenCalledTimes(2);

    await db.horses.clear();
    await vi.waitFor(() => expect(latest()).toEqual([]));
    expect(begin).toHaveBeenCalledTimes(3);
  });

  it('ignores changes to other tables and stops listening when stopped', async () => {
    const { db, lists } = await watched(3);
    await db.breeds.put({ id: id(900), name: 'Arabian', active: true } as never);
    stop?.();
    stop = undefined;
    await db.horses.put(horse(901, 'After the stop'));
    // Another watch's whole read, begun after the put, ends after any read the stopped one could have begun for it.
    const other: Horse[][] = [];
    const stopOther = watchHorseList(
      db,
      () => () => {},
      (horses) => other.push(horses),
    );
    await vi.waitFor(() => expect(other).toHaveLength(1));
    stopOther();
    expect(named(other[0]!)).toContain('After the stop');
    expect(lists).toHaveLength(1);
  });

  it('a read that fails keeps the list and waits for the next change, not asking again and again', async () => {
    const { db, lists } = await watched(3);
    const failures = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      db.close({ disableAutoOpen: true });
      const changed = () => Dexie.on.storagemutated.fire({ [`idb://${db.name}/horses/`]: new RangeSet().addKey(id(1)) });
      changed();
      await vi.waitFor(() => expect(failures).toHaveBeenCalledTimes(1));
      // A round trip to another database: a read asked again at once would have failed meanwhile.
      const other = openRanchDb(`horse-list-other-${Date.now()}`);
      await other.horses.count();
      await other.delete();
      expect(failures).toHaveBeenCalledTimes(1);
      changed();
      await vi.waitFor(() => expect(failures).toHaveBeenCalledTimes(2));
      expect(lists).toHaveLength(1);
    } finally {
      failures.mockRestore();
      db.open();
    }
  });
});

describe('keysOf', () => {
  it('names the keys of a change, or none for a range', () => {
    expect(keysOf(new RangeSet().addKeys([id(2), id(1), id(3)]))?.sort()).toEqual([id(1), id(2), id(3)]);
    // As a BroadcastChannel hands it over: plain objects.
    expect(keysOf(structuredClone(new RangeSet().addKeys([id(1), id(2)])) as never)?.sort()).toEqual([id(1), id(2)]);
    expect(keysOf(new RangeSet(id(1), id(4)))).toBeNull();
    expect(keysOf(new RangeSet().addKey(id(1)).add({ from: id(5), to: id(9) }))).toBeNull();
    expect(keysOf(new RangeSet())).toEqual([]);
  });
});

describe('patchByName', () => {
  it('replaces and removes the horses named, keeping name order (ties by id)', () => {
    const list = [horse(1, 'A'), horse(2, 'B'), horse(3, 'C')];
    const patched = patchByName(list, [id(2), id(3), id(4)], [horse(2, 'D'), undefined, horse(4, 'A')]);
    expect(patched.map((h) => [h.name, h.id])).toEqual([
      ['A', id(1)],
      ['A', id(4)],
      ['D', id(2)],
    ]);
    expect(list).toHaveLength(3); // the list given is left as it was
  });
});
