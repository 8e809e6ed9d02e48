import Dexie from 'dexie';
import type { Horse } from '../../../../shared/index.ts';
import type { RanchDb } from '../../data/db.ts';
import { backgroundTurn } from '../../lib/background-turn.ts';

/**
 * Rows read per IndexedDB request for the whole list. Each page is one main-thread task
 * (Dexie's request success, the browser turning every row back into an object, garbage
 * collection), its time in proportion to its rows. The page is sized so that on a slow
 * phone a page stays under a long task (50 ms): larger pages make a start's long tasks and
 * blocking time grow, for a whole list read only slightly sooner. Small pages also leave
 * room for the search's render of the rows read so far in the same task (use-horse-rows.ts).
 * 10,000 horses are 80 requests.
 */
export const READ_PAGE = 125;

/**
 * The rows read so far: how many, and all of them in name order. The order is made when asked
 * for, from the sorted runs kept meanwhile (the read asks at its end; the screen's search
 * uses the count and tests each page as it comes: early-matches.ts).
 */
export type RowsSoFar = { readonly count: number; inNameOrder(): Horse[] };

/**
 * Called after each page but the last with the rows read so far and the page's own rows:
 * the objects the list will hold, so work done per row now (a search typed meanwhile tests
 * them, early-matches.ts) is not left for the end.
 */
export type OnPage = (soFar: RowsSoFar, page: Horse[]) => void;

/**
 * Every horse by name, a page per request. The pages follow the primary key and the rows are
 * put in name order here (ties by id, as the name index orders them): inside a live query
 * Dexie remembers each row read through a secondary index one key at a time (its change
 * tracking), seconds of a phone's main thread for a large ranch, but a primary-key range as
 * one range. Each page is sorted as it arrives, handed to `onPage` and kept in sorted runs
 * (sortedRuns), so no 10,000-row sort is left for the end.
 *
 * The next page is asked for only when the browser has nothing more urgent to do
 * (background-turn.ts): a tap, a dialog opening or a save during a start goes ahead of the
 * rest of the list. The wait is wrapped in Dexie's promise so that, inside a live query,
 * the pages after it are still watched for changes (Dexie's rule for other async calls in a
 * live query).
 */
export async function readByNameInPages(db: RanchDb, page = READ_PAGE, onPage?: OnPage): Promise<Horse[]> {
  const read = sortedRuns();
  const shared = sharedStrings();
  let last: string | undefined;
  for (;;) {
    const next = await (last === undefined ? db.horses.limit(page) : db.horses.where(':id').above(last).limit(page)).toArray();
    last = next.at(-1)?.id ?? last;
    for (let i = 0; i < next.length; i++) {
      const horse = next[i]!;
      if (typeof horse.ownerId === 'string') horse.ownerId = shared(horse.ownerId);
    }
    read.add(next.sort(byNameThenId));
    if (next.length < page) return read.inNameOrder();
    onPage?.(read, next);
    await Dexie.Promise.resolve(backgroundTurn());
  }
}

/**
 * One string for each value seen, for the horses' suppliers (the same few ids on many
 * horses): IndexedDB gives every row its own copy of each id, so the list would keep tens of
 * thousands of strings, a few hundred of them different. The copies die young instead. The lookup
 * items' ids come shared already: they are stored as numbers (numbered-references.ts).
 */
export function sharedStrings(): (value: string) => string {
  const seen = new Map<string, string>();
  return (value) => {
    const first = seen.get(value);
    if (first !== undefined) return first;
    seen.set(value, value);
    return value;
  };
}

/**
 * Runs in name order, merged as a binary counter carries: a run is merged into the one below
 * it while that one is no longer. Reading n rows in pages of p costs about n·log2(n/p)
 * comparisons; merging each page into all the rows read so far costs about n²/2p.
 * `inNameOrder` merges what is left
 * into one run and keeps it, so asking again before the next page returns the same array.
 */
export function sortedRuns(): RowsSoFar & { add(run: Horse[]): void } {
  const runs: Horse[][] = [];
  let count = 0;
  const mergeTop = () => {
    const top = runs.pop()!;
    runs.push(mergeByName(runs.pop()!, top));
  };
  return {
    get count() {
      return count;
    },
    add(run) {
      runs.push(run);
      count += run.length;
      while (runs.length > 1 && runs.at(-2)!.length <= runs.at(-1)!.length) mergeTop();
    },
    inNameOrder() {
      while (runs.length > 1) mergeTop();
      return runs[0] ?? [];
    },
  };
}

/** `<` compares strings by UTF-16 code units, as IndexedDB does. */
export function byNameThenId(a: Horse, b: Horse): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Two lists in name order as one, in name order. */
export function mergeByName<Row extends Horse>(a: Row[], b: Row[]): Row[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const merged: Row[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) merged[k++] = byNameThenId(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) merged[k++] = a[i++]!;
  while (j < b.length) merged[k++] = b[j++]!;
  return merged;
}
