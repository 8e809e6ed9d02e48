import { describe, expect, it } from 'vitest';
import type { Horse } from '../../../../shared/index.ts';
import { createArrivedRows } from './arrived-rows.ts';
import { createEarlyMatches, type HorseTest } from './early-matches.ts';
import { byNameThenId, sortedRuns } from './read-in-pages.ts';

const horse = (i: number, name: string) => ({ id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`, name }) as Horse;
const named = (rows: Horse[]) => rows.map((row) => row.name);
/** No first rows by name (the same array each time, as the screen's live query keeps its result). */
const none: Horse[] = [];

/** A read of the whole list begun on `arrived`: hands over pages (each sorted by name, as the read sorts them). */
function beginRead(arrived: ReturnType<typeof createArrivedRows>): (pages: Horse[][]) => void {
  const onPage = arrived.begin();
  const soFar = sortedRuns();
  return (pages) => {
    for (const page of pages) {
      const sorted = [...page].sort(byNameThenId);
      soFar.add(sorted);
      onPage(soFar, sorted);
    }
  };
}

describe('a search while the whole list is read, kept up to date page by page', () => {
  it('[H2] shows the matches of the first rows and of every page read, in name order, each horse once', () => {
    const arrived = createArrivedRows();
    const matches = createEarlyMatches();
    const comet: HorseTest = (row) => row.name.includes('Comet');
    const first = [horse(9, 'A Comet'), horse(1, 'B Horse')];
    const read = beginRead(arrived);

    expect(named(matches(arrived.read(), first, comet))).toEqual(['A Comet']);
    // The first rows' horse comes again in a page (another copy): shown once.
    read([[horse(1, 'B Horse'), horse(2, 'Z Comet'), horse(9, 'A Comet')]]);
    expect(named(matches(arrived.read(), first, comet))).toEqual(['A Comet', 'Z Comet']);
    read([[horse(3, 'M Comet'), horse(4, 'C Horse')]]);
    expect(named(matches(arrived.read(), first, comet))).toEqual(['A Comet', 'M Comet', 'Z Comet']);
    expect(matches(arrived.read(), first, comet)[0]).toBe(first[0]);
  });

  it("tests only a new page's horses when it arrives, and a page with no match changes nothing", () => {
    const arrived = createArrivedRows();
    const matches = createEarlyMatches();
    const tested: string[] = [];
    const comet: HorseTest = (row) => {
      tested.push(row.name);
      return row.name.includes('Comet');
    };
    const read = beginRead(arrived);
    read([[horse(1, 'Comet 1'), horse(2, 'Horse 2')]]);
    const before = matches(arrived.read(), none, comet);
    tested.length = 0;

    read([[horse(3, 'Horse 3'), horse(4, 'Horse 4')]]);
    const after = matches(arrived.read(), none, comet);
    expect(tested).toEqual(['Horse 3', 'Horse 4']);
    // The same list: the screen has nothing new to render.
    expect(after).toBe(before);
    expect(named(after)).toEqual(['Comet 1']);
  });

  it('[H2] a new search starts again from every horse read so far', () => {
    const arrived = createArrivedRows();
    const matches = createEarlyMatches();
    const read = beginRead(arrived);
    read([
      [horse(1, 'Comet'), horse(2, 'Dancer')],
      [horse(3, 'Cupid'), horse(4, 'Donner')],
    ]);
    const starting =
      (letter: string): HorseTest =>
      (row) =>
        row.name.startsWith(letter);
    expect(named(matches(arrived.read(), none, starting('C')))).toEqual(['Comet', 'Cupid']);
    expect(named(matches(arrived.read(), none, starting('D')))).toEqual(['Dancer', 'Donner']);
  });

  it('[H2] a change mid-read keeps the earlier read until the new one has read as many, then shows the new one', () => {
    const arrived = createArrivedRows();
    const matches = createEarlyMatches();
    const comet: HorseTest = (row) => row.name.includes('Comet');
    const earlier = beginRead(arrived);
    earlier([
      [horse(1, 'Comet 1'), horse(2, 'Horse 2')],
      [horse(3, 'Comet 3'), horse(4, 'Horse 4')],
    ]);
    expect(named(matches(arrived.read(), none, comet))).toEqual(['Comet 1', 'Comet 3']);

    // Comet 1 was renamed in a change the list could not name by key: it reads the whole list again (horse-list.ts).
    const newer = beginRead(arrived);
    newer([[horse(1, 'Star 1'), horse(2, 'Horse 2')]]);
    // Fewer rows than shown: the search's partial result does not shrink meanwhile.
    expect(named(matches(arrived.read(), none, comet))).toEqual(['Comet 1', 'Comet 3']);
    // The earlier read hands over no more.
    earlier([[horse(5, 'Comet 5')]]);
    expect(named(matches(arrived.read(), none, comet))).toEqual(['Comet 1', 'Comet 3']);

    newer([[horse(3, 'Comet 3'), horse(4, 'Horse 4')]]);
    expect(named(matches(arrived.read(), none, comet))).toEqual(['Comet 3']);
  });
});
