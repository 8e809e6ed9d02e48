import { useMemo } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Horse, LookupItem } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import type { RanchDb } from '../../data/db.ts';
import { contactName } from '../contacts/contact-name.ts';
import { createNameIndex, normaliseNeedle } from './name-search.ts';

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

type IndexedField = 'statusId' | 'breedId' | 'colorId' | 'genderId' | 'ownerId';
type Dimensions = Omit<HorseFilters, 'search'>;

/**
 * Horses matching the select filters, ordered by name. The first chosen filter uses its
 * index (`where(field).equals(id)`); the others filter those rows. The name search is not
 * applied here: it narrows these rows in memory (name-search.ts, see useHorseRows).
 */
async function loadHorses(db: RanchDb, filters: Dimensions): Promise<Horse[]> {
  const fields: IndexedField[] = ['statusId', 'breedId', 'colorId', 'genderId', 'ownerId'];
  const chosen = fields.filter((field) => filters[field] !== '');
  if (chosen.length === 0) return readByNameInPages(db);
  // ownerId null (the ranch) is not indexed by IndexedDB, so it cannot lead.
  const lead = chosen.find((field) => !(field === 'ownerId' && filters.ownerId === RANCH));
  const matches = (horse: Horse) =>
    chosen.every((field) => (field === 'ownerId' && filters.ownerId === RANCH ? horse.ownerId === null : horse[field] === filters[field]));
  if (!lead) return db.horses.orderBy('name').filter(matches).toArray();
  const horses = await db.horses.where(lead).equals(filters[lead]).filter(matches).toArray();
  return horses.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Rows read per IndexedDB request for the whole list. One 10,000-row `toArray()` is one
 * main-thread task of ~240 ms on a phone-class CPU (the browser turns every row back into an
 * object when the request succeeds); pages of 2,000 are five tasks of ~50 ms, with input
 * handled between them (docs/performance.md "Phone (CPU 4×)").
 */
export const READ_PAGE = 2000;

/**
 * Every horse by name, a page per request. The pages follow the primary key and the rows are
 * put in name order here (ties by id, as the name index orders them): inside a live query
 * Dexie remembers each row read through a secondary index one key at a time (its change
 * tracking), ~1.5 s of a phone's main thread for 10,000 horses, but a primary-key range as
 * one range. `<` compares strings by UTF-16 code units, as IndexedDB does.
 */
export async function readByNameInPages(db: RanchDb, page = READ_PAGE): Promise<Horse[]> {
  const horses: Horse[] = [];
  for (;;) {
    const last = horses.at(-1)?.id;
    const next = await (last === undefined ? db.horses.limit(page) : db.horses.where(':id').above(last).limit(page)).toArray();
    horses.push(...next);
    if (next.length < page) break;
  }
  return horses.sort(byNameThenId);
}

function byNameThenId(a: Horse, b: Horse): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
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

function toRow(horse: Horse, names: Names): HorseRow {
  const name = (id: string | null) => (id ? (names.lookup.get(id) ?? null) : null);
  return {
    ...horse,
    breedName: name(horse.breedId),
    colorName: name(horse.colorId),
    genderName: name(horse.genderId),
    statusName: name(horse.statusId),
    supplierName: horse.ownerId ? (names.owners.get(horse.ownerId) ?? null) : null,
  };
}

/** Rows read first on an unfiltered list, so a cold start paints before all 10,000 are read. */
export const FIRST_PAGE = 100;

export type HorseRowsResult = {
  /** undefined while the first query runs. */
  rows: HorseRow[] | undefined;
  /** false while only the first page is shown (Export waits for the whole list). */
  complete: boolean;
};

/**
 * Two live queries (and a first page while the whole list loads): the names of lookups and
 * suppliers, and the horses of the select filters, read and mapped to rows only when
 * horses, names or those filters change. The search narrows those rows in memory
 * (name-search.ts), so a keystroke reads nothing from IndexedDB and renders once.
 */
export function useHorseRows(filters: HorseFilters): HorseRowsResult {
  const { db } = useRanchData();
  const { search, statusId, breedId, colorId, genderId, ownerId } = filters;
  const unfiltered = !statusId && !breedId && !colorId && !genderId && !ownerId;
  // Issued before the whole list: IndexedDB answers requests in order, so the first rows
  // do not wait behind the 10,000-row read.
  const names = useLiveQuery(() => loadNames(db), [db]);
  const firstPage = useLiveQuery(async () => (unfiltered ? db.horses.orderBy('name').limit(FIRST_PAGE).toArray() : null), [db, unfiltered]);
  const horses = useLiveQuery(
    () => loadHorses(db, { statusId, breedId, colorId, genderId, ownerId }),
    [db, statusId, breedId, colorId, genderId, ownerId],
  );
  const needle = normaliseNeedle(search);
  // A search waits for the whole list: the first page alone would miss matches.
  const source = horses ?? (needle || !unfiltered ? undefined : (firstPage ?? undefined));
  const index = useMemo(() => (source && names ? createNameIndex(source.map((horse) => toRow(horse, names))) : undefined), [source, names]);
  const rows = useMemo(() => index?.search(needle), [index, needle]);
  return { rows, complete: horses !== undefined };
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
