import type { Horse } from '../../../../shared/index.ts';
import { mergeByName } from './read-in-pages.ts';

/** The pages a read of the whole list has handed over so far, each in name order (arrived-rows.ts). */
export type ReadPages = {
  readonly pages: readonly (readonly Horse[])[];
  /** Every horse of those pages, in name order: the read's own sorted runs, merged (read-in-pages.ts). */
  inNameOrder(): readonly Horse[];
};

/** Which horses a search or filter keeps (use-horse-rows.ts builds it). */
export type HorseTest = (horse: Horse) => boolean;

/**
 * What a search or filter shows while the whole list is still being read: the horses that
 * pass the test among the list's first rows by name (`first`) and every page read so far,
 * in name order, each horse once (the first rows' copy wins). Returns the same array until a
 * page adds a match, so a page with none renders nothing new.
 *
 * Kept up to date page by page: a page's arrival tests only that page's rows and merges its
 * matches in. Testing every row read so far again on each page would make each page of a
 * start with a search typed a long task on a phone, and the next keystroke wait behind it.
 * Another test, first rows or read starts again from every row read so far,
 * once: one pass over them in name order as the read keeps them (its sorted runs merged,
 * which the read's end would do anyway), so the matches need no sort.
 */
export function createEarlyMatches(): (read: ReadPages | undefined, first: readonly Horse[] | undefined, test: HorseTest) => Horse[] {
  let kept: Kept | undefined;
  return (read, first, test) => {
    const pages = read?.pages ?? [];
    if (!kept || kept.read !== read || kept.first !== first || kept.test !== test) {
      const firstIds = new Set((first ?? []).map((horse) => horse.id));
      const firstRows = (first ?? []).filter(test);
      const readRows = read ? passing(read.inNameOrder(), firstIds, test) : [];
      kept = { read, first, test, done: pages.length, firstIds, rows: mergeByName(firstRows, readRows) };
    }
    while (kept.done < pages.length) {
      const found = passing(pages[kept.done++]!, kept.firstIds, test);
      if (found.length > 0) kept.rows = mergeByName(kept.rows, found);
    }
    return kept.rows;
  };
}

/** What the matches were made of, how many pages are in, and the matches. */
type Kept = {
  read: ReadPages | undefined;
  first: readonly Horse[] | undefined;
  test: HorseTest;
  done: number;
  firstIds: Set<string>;
  rows: Horse[];
};

/** Horses (in name order) that pass the test and are not among the first rows. */
function passing(page: readonly Horse[], firstIds: Set<string>, test: HorseTest): Horse[] {
  const found: Horse[] = [];
  for (const horse of page) if (!firstIds.has(horse.id) && test(horse)) found.push(horse);
  return found;
}
