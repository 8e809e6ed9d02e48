import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { liveQuery } from 'dexie';
import { useLiveQuery, useObservable } from 'dexie-react-hooks';
import type { Horse, LookupItem } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { whenIdle } from '../../lib/when-idle.ts';
import { contactName } from '../contacts/contact-name.ts';
import type { RanchDb } from '../../data/db.ts';
import { createArrivedRows } from './arrived-rows.ts';
import { createEarlyMatches, type HorseTest } from './early-matches.ts';
import { watchHorseList } from './horse-list.ts';
import { loadHorseNames, type HorseNames } from './horse-names.ts';
import { createNameIndex, normaliseNeedle, searchedName } from './name-search.ts';

/** '' means "All …"; supplier RANCH means horses of the ranch itself (ownerId null). */
export type HorseFilters = { search: string; statusId: string; breedId: string; colorId: string; genderId: string; ownerId: string };
export const RANCH = 'ranch';
export const NO_FILTERS: HorseFilters = { search: '', statusId: '', breedId: '', colorId: '', genderId: '', ownerId: '' };

type Dimensions = Omit<HorseFilters, 'search'>;

/**
 * Whether a horse passes the select filters ('' lets every value through; supplier RANCH
 * means ownerId null). The filters narrow the whole list in memory, as the search does: the
 * list reads every horse anyway, a change of filter then reads nothing again, and the horses
 * table needs no index per filter (each index is written for every horse of a first sync).
 */
function matchesFilters(filters: Dimensions): (horse: Horse) => boolean {
  const { statusId, breedId, colorId, genderId, ownerId } = filters;
  return (horse) =>
    (!statusId || horse.statusId === statusId) &&
    (!breedId || horse.breedId === breedId) &&
    (!colorId || horse.colorId === colorId) &&
    (!genderId || horse.genderId === genderId) &&
    (!ownerId || (ownerId === RANCH ? horse.ownerId === null : horse.ownerId === ownerId));
}

/** Rows read first on an unfiltered list, so a cold start paints before all 10,000 are read. */
export const FIRST_PAGE = 100;

/** An observable that never answers: what the first page's query becomes once it is stopped. */
const SILENT = { subscribe: () => ({ unsubscribe: () => undefined }) };

export type HorseRowsResult = {
  /** The horses as read, unnamed; undefined while the first query (or the names) runs. */
  rows: Horse[] | undefined;
  /** What the rows' references stand for (horse-names.ts): the table names the rows in view. */
  names: HorseNames | undefined;
  /** false until the whole list is read: only the first page, or a search's matches among the rows read so far, are shown (Export waits for the whole list). */
  complete: boolean;
  /** How many horses the ranch has, once the whole list is read ([B6] the count). */
  total: number | undefined;
};

/**
 * The names of lookups and suppliers (a live query), the first page by name while the whole
 * list loads (another), and every horse, read whole once and then change by change
 * (horse-list.ts), kept as read: a horse is named where it is shown (horse-names.ts), so new
 * names re-read nothing. The select filters and the search narrow those rows in memory
 * (name-search.ts), so a keystroke or a filter reads nothing from IndexedDB and renders
 * once, and every list is in the same order (name, then id, by code units as IndexedDB
 * compares).
 *
 * A search or filter chosen while the whole list is still being read answers at once from
 * the rows read so far: the first page, then every page the read hands over
 * (arrived-rows.ts), each tested as it arrives (early-matches.ts), in name order; `complete`
 * stays false until the whole list is in, and then the result is the whole list's, in the
 * order `order` makes ([B6], [B7]; the first page and the early matches stay as read).
 */
export function useHorseRows(filters: HorseFilters, order?: (horses: Horse[], names: HorseNames) => Horse[]): HorseRowsResult {
  const { db } = useRanchData();
  const { search, statusId, breedId, colorId, genderId, ownerId } = filters;
  const unfiltered = !statusId && !breedId && !colorId && !genderId && !ownerId;
  // Issued before the whole list: IndexedDB answers requests in order, so the first rows
  // do not wait behind the 10,000-row read.
  const names = useLiveQuery(() => loadHorseNames(db), [db]);
  const [list, setList] = useState<{ db: RanchDb; horses: Horse[] }>();
  const horses = list?.db === db ? list.horses : undefined;
  const complete = horses !== undefined;
  // Its rows count only before the first whole list is in: after that the list shows the
  // last whole one while it is read again (horse-list.ts), and the page is read no more (a
  // live query reads again on every change to the horses table). Stopped by a source that
  // never answers, so its last answer stays and stopping renders nothing.
  const firstPage = useObservable(
    () => (complete ? SILENT : liveQuery(() => db.horses.orderBy('name').limit(FIRST_PAGE).toArray())),
    [db, complete],
  );
  // Every horse, read whole once and then change by change; declared after the first page,
  // so its read is issued after the page's (effects run in order).
  const [arrived] = useState(createArrivedRows);
  useEffect(
    () =>
      watchHorseList(
        db,
        () => arrived.begin(),
        (read) => setList({ db, horses: read }),
      ),
    [db, arrived],
  );
  const needle = normaliseNeedle(search);
  const narrowingEarly = !complete && (needle !== '' || !unfiltered);
  // Only a search or a filter before the list is complete follows the pages, each page
  // tested as it arrives (early-matches.ts): otherwise a page's arrival renders nothing.
  const [earlyMatches] = useState(createEarlyMatches);
  const earlyTest = useMemo(
    () => (narrowingEarly ? passesSearch(needle, { statusId, breedId, colorId, genderId, ownerId }) : undefined),
    [narrowingEarly, needle, statusId, breedId, colorId, genderId, ownerId],
  );
  // Nothing read yet (no first rows, no page): still loading, not "no horses found".
  const early = useSyncExternalStore(arrived.subscribe, () => {
    const read = arrived.read();
    return earlyTest && (firstPage || read) ? earlyMatches(read, firstPage, earlyTest) : undefined;
  });
  // Without a search or filter the first page shows until the whole list is in: it is the
  // list's true beginning, which the rows read so far (by primary key) are not.
  const source = horses ?? (narrowingEarly ? undefined : firstPage);
  const matching = useMemo(
    () => (source && !unfiltered ? source.filter(matchesFilters({ statusId, breedId, colorId, genderId, ownerId })) : source),
    [source, unfiltered, statusId, breedId, colorId, genderId, ownerId],
  );
  // [B6] The order chosen is made once per list or order, before the index: a keystroke
  // then searches the rows in that order and sorts nothing.
  const ordered = useMemo(
    () => (matching && order && names && horses ? order(matching, names) : matching),
    [matching, order, names, horses],
  );
  const index = useMemo(() => ordered && createNameIndex(ordered), [ordered]);
  const searched = useMemo(() => index?.search(needle), [index, needle]);
  // The index lower-cases its names when idle: a ranch's worth of them would otherwise be
  // a visible part of the first keystroke on a phone.
  useEffect(() => (index ? whenIdle(() => index.warm()) : undefined), [index]);
  // Rows without their names would show blank columns: the list waits for both (the names'
  // query is issued first, and its tables are small).
  return { rows: names && (narrowingEarly ? early : searched), names, complete, total: horses?.length };
}

/** The select filters and the name search (normalised) as one test of a horse. */
function passesSearch(needle: string, filters: Dimensions): HorseTest {
  const passes = matchesFilters(filters);
  return needle ? (horse) => passes(horse) && searchedName(horse.name).includes(needle) : passes;
}

export type LookupLists = Record<'breeds' | 'colors' | 'genders' | 'statuses', LookupItem[]>;

/**
 * Every lookup item by name, inactive ones included: the filters list them all (old horses
 * keep inactive values) and the form offers only active ones plus the horse's own value.
 */
export function useLookupLists(): LookupLists | undefined {
  const { db } = useRanchData();
  return useLiveQuery(async () => {
    const [breeds, colors, genders, statuses] = await Promise.all([
      db.breeds.orderBy('name').toArray(),
      db.colors.orderBy('name').toArray(),
      db.genders.orderBy('name').toArray(),
      db.statuses.orderBy('name').toArray(),
    ]);
    return { breeds, colors, genders, statuses };
  }, [db]);
}

export type SupplierOption = { id: string; name: string };

/** Suppliers by last name, for the horse form and the supplier filter. */
export function useSupplierOptions(): SupplierOption[] | undefined {
  const { db } = useRanchData();
  return useLiveQuery(
    async () => (await db.owners.orderBy('lastName').toArray()).map((owner) => ({ id: owner.id, name: contactName(owner) })),
    [db],
  );
}
