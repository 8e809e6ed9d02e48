import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Horse, LookupItem } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { whenIdle } from '../../lib/when-idle.ts';
import type { RanchDb } from '../../data/db.ts';
import { contactName } from '../contacts/contact-name.ts';
import { createArrivedRows } from './arrived-rows.ts';
import { createEarlyMatches, type HorseTest } from './early-matches.ts';
import { createNameIndex, normaliseNeedle, searchedName } from './name-search.ts';
import { readByNameInPages } from './read-in-pages.ts';

export type HorseRow = Horse & {
  breedName: string | null;
  colorName: string | null;
  genderName: string | null;
  statusName: string | null;
  supplierName: string | null;
};

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

type Names = { lookup: Map<string, string>; owners: Map<string, string> };

/** Names of every lookup item and supplier: small tables, read once per change. */
async function loadNames(db: RanchDb): Promise<Names> {
  const [breeds, colors, genders, statuses, owners] = await Promise.all([
    db.breeds.toArray(),
    db.colors.toArray(),
    db.genders.toArray(),
    db.statuses.toArray(),
    db.owners.toArray(),
  ]);
  // Lookup ids are UUIDs, unique across the four lists.
  const lookup = new Map([...breeds, ...colors, ...genders, ...statuses].map((item: LookupItem) => [item.id, item.name]));
  return { lookup, owners: new Map(owners.map((owner) => [owner.id, contactName(owner)])) };
}

/** One horse with its names (the bell opens a horse's details, [K4]); undefined when it is gone. */
export async function loadHorseRow(db: RanchDb, id: string): Promise<HorseRow | undefined> {
  const horse = await db.horses.get(id);
  return horse && toRow(horse, await loadNames(db));
}

/**
 * A row of the horse's own fields, copied (TypeScript holds the list to Horse's fields), then
 * named: for one horse read alone, and for a horse of the list named before, when the names
 * change (rowMapper). The list's first naming is done in place (namedInPlace).
 */
function toRow(horse: Horse, names: Names): HorseRow {
  const { id, name, breedId, colorId, genderId, statusId, ownerId, birthdate, ageYears, priceUsd, photoUrl, notes } = horse;
  return namedInPlace({ id, name, breedId, colorId, genderId, statusId, ownerId, birthdate, ageYears, priceUsd, photoUrl, notes }, names);
}

/**
 * The horse made its own row: its names added to the object the read gave (a fresh one per
 * read: the database's live-query cache is off, db.ts). The list then keeps one object per
 * horse, where a row beside each horse kept two (docs/performance.md "One object per horse").
 */
function namedInPlace(horse: Horse, names: Names): HorseRow {
  const lookupName = (id: string | null) => (id ? (names.lookup.get(id) ?? null) : null);
  const row = horse as HorseRow;
  row.breedName = lookupName(horse.breedId);
  row.colorName = lookupName(horse.colorId);
  row.genderName = lookupName(horse.genderId);
  row.statusName = lookupName(horse.statusId);
  row.supplierName = horse.ownerId ? (names.owners.get(horse.ownerId) ?? null) : null;
  return row;
}

/** Rows read first on an unfiltered list, so a cold start paints before all 10,000 are read. */
export const FIRST_PAGE = 100;

export type HorseRowsResult = {
  /** undefined while the first query runs. */
  rows: HorseRow[] | undefined;
  /** false until the whole list is read: only the first page, or a search's matches among the rows read so far, are shown (Export waits for the whole list). */
  complete: boolean;
};

/**
 * Two live queries (and a first page while the whole list loads): the names of lookups and
 * suppliers, and every horse, read and mapped to rows only when horses or names change.
 * The select filters and the search narrow those rows in memory (name-search.ts), so a
 * keystroke or a filter reads nothing from IndexedDB and renders once, and every list is in
 * the same order (name, then id, by code units as IndexedDB compares).
 *
 * A search or filter chosen while the whole list is still being read answers at once from
 * the rows read so far: the first page, then every page the read hands over
 * (arrived-rows.ts), each tested as it arrives (early-matches.ts), in name order; `complete`
 * stays false until the whole list is in, and then the result is the whole list's.
 */
export function useHorseRows(filters: HorseFilters): HorseRowsResult {
  const { db } = useRanchData();
  const { search, statusId, breedId, colorId, genderId, ownerId } = filters;
  const unfiltered = !statusId && !breedId && !colorId && !genderId && !ownerId;
  // Issued before the whole list: IndexedDB answers requests in order, so the first rows
  // do not wait behind the 10,000-row read.
  const names = useLiveQuery(() => loadNames(db), [db]);
  const firstPage = useLiveQuery(() => db.horses.orderBy('name').limit(FIRST_PAGE).toArray(), [db]);
  // Its rows count only before the first whole list is in: after that the list shows the
  // last whole one until the next is read (useLiveQuery keeps its last result).
  const [arrived] = useState(createArrivedRows);
  const rowOf = useMemo(() => names && rowMapper(names), [names]);
  const rowOfNow = useRef(rowOf);
  rowOfNow.current = rowOf;
  const horses = useLiveQuery(() => {
    const handOver = arrived.begin();
    return readByNameInPages(db, undefined, (soFar, page) => {
      // Each page's horses get their names as the page arrives (remembered by rowMapper),
      // a few milliseconds per page: 10,000 at the end were ~80 ms of one task on a phone.
      const toRow = rowOfNow.current;
      if (toRow) for (const horse of page) toRow(horse);
      handOver(soFar, page);
    });
  }, [db]);
  const complete = horses !== undefined;
  const needle = normaliseNeedle(search);
  const narrowingEarly = !complete && (needle !== '' || !unfiltered);
  // Only a search or a filter before the list is complete follows the pages, each page
  // tested as it arrives (early-matches.ts): otherwise a page's arrival renders nothing.
  const [earlyMatches] = useState(createEarlyMatches<HorseRow>);
  const earlyTest = useMemo(
    () => (narrowingEarly ? passesSearch(needle, { statusId, breedId, colorId, genderId, ownerId }) : undefined),
    [narrowingEarly, needle, statusId, breedId, colorId, genderId, ownerId],
  );
  // Nothing read yet (no first rows, no page): still loading, not "no horses found".
  const early = useSyncExternalStore(arrived.subscribe, () => {
    const read = arrived.read();
    return earlyTest && rowOf && (firstPage || read) ? earlyMatches(read, firstPage, earlyTest, rowOf) : undefined;
  });
  // Without a search or filter the first page shows until the whole list is in: it is the
  // list's true beginning, which the rows read so far (by primary key) are not.
  const source = horses ?? (narrowingEarly ? undefined : firstPage);
  const matching = useMemo(
    () => (source && !unfiltered ? source.filter(matchesFilters({ statusId, breedId, colorId, genderId, ownerId })) : source),
    [source, unfiltered, statusId, breedId, colorId, genderId, ownerId],
  );
  const index = useMemo(() => (matching && rowOf ? createNameIndex(matching.map(rowOf)) : undefined), [matching, rowOf]);
  const searched = useMemo(() => index?.search(needle), [index, needle]);
  // 10,000 lower-cased names were ~20 ms of the first keystroke on a phone-class CPU.
  useEffect(() => (index ? whenIdle(() => index.warm()) : undefined), [index]);
  return { rows: narrowingEarly ? early : searched, complete };
}

/** The select filters and the name search (normalised) as one test of a horse. */
function passesSearch(needle: string, filters: Dimensions): HorseTest {
  const passes = matchesFilters(filters);
  return needle ? (horse) => passes(horse) && searchedName(horse.name).includes(needle) : passes;
}

/**
 * Each horse's row, remembered per horse object until the names change: while a search
 * follows the pages, each page's list holds the same objects as the last one and more. A
 * horse named before (the names changed since) gets a row of its own: a new object, so the
 * list's cards see the change.
 */
function rowMapper(names: Names): (horse: Horse) => HorseRow {
  const rows = new WeakMap<Horse, HorseRow>();
  return (horse) => {
    let row = rows.get(horse);
    if (!row) rows.set(horse, (row = 'breedName' in horse ? toRow(horse, names) : namedInPlace(horse, names)));
    return row;
  };
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
