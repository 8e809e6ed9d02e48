/**
 * [B7] The order of a list: one column, ascending or descending. Text is compared as people
 * read it ("Horse 2" before "Horse 10", "apollo" beside "Apollo"), numbers as numbers, and
 * a row with nothing in the column goes last either way.
 */
export type SortDirection = 'asc' | 'desc';
export type ListSort = { key: string; direction: SortDirection };
/** What a row is sorted by in one column; null or undefined: nothing (last). */
export type SortValue = string | number | null | undefined;

/** Natural order in the viewer's language: digits compare as numbers, case and accents only break ties. */
export const naturalCollator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Two values of one column; empty ones last. */
export function compareSortValues(a: SortValue, b: SortValue): number {
  const aEmpty = isEmpty(a);
  const bEmpty = isEmpty(b);
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return naturalCollator.compare(String(a), String(b));
}

/**
 * A new array of `rows` in the order of `sortBy`; rows equal in it are in the order of
 * `thenBy` (ascending: the list's own order, a name), then as they came. Each row's values are
 * taken once, not once per comparison; descending keeps empty values last.
 */
export function sortRows<Row>(
  rows: readonly Row[],
  sortBy: (row: Row) => SortValue,
  direction: SortDirection,
  thenBy?: (row: Row) => SortValue,
): Row[] {
  const keyed = rows.map((row, index) => ({ row, index, value: sortBy(row), tie: thenBy?.(row) }));
  const compare = compareKeyed(direction);
  keyed.sort((x, y) => compare(x, y) || x.index - y.index);
  return keyed.map((entry) => entry.row);
}

type Keyed = { value: SortValue; tie: SortValue };

/** Two rows' values: the column's in `direction` (empty ones last), then the tie-break's ascending. */
function compareKeyed(direction: SortDirection): (x: Keyed, y: Keyed) => number {
  const sign = direction === 'asc' ? 1 : -1;
  return (x, y) =>
    (isEmpty(x.value) || isEmpty(y.value) ? compareSortValues(x.value, y.value) : sign * compareSortValues(x.value, y.value)) ||
    compareSortValues(x.tie, y.tie);
}

/** More rows changed since the last sort than this sort the whole list again. */
const MOST_PLACED = 200;

/**
 * `sortRows` for a long list that changes a few rows at a time (the horses, as another device
 * edits them): rows it has sorted before (the same objects) keep their places, and only the
 * rows new since are put in theirs, so one horse saved costs a few comparisons, not a sort of
 * the ranch. A new `sortBy`, `thenBy` or direction, or many rows changed, sorts anew. Rows
 * equal in both values keep no particular order among themselves.
 */
export function createKeptOrder<Row extends object>(): typeof sortRows<Row> {
  let last: { rows: readonly Row[]; sorted: Row[]; sortBy: unknown; direction: SortDirection; thenBy: unknown } | undefined;
  return (rows, sortBy, direction, thenBy) => {
    let sorted: Row[] | undefined;
    if (last && last.sortBy === sortBy && last.thenBy === thenBy && last.direction === direction) {
      const before = new Set(last.rows);
      const added = rows.filter((row) => !before.has(row));
      const removed = last.rows.length - (rows.length - added.length);
      if (added.length + removed <= MOST_PLACED) sorted = placeRows(last.sorted, rows, added, sortBy, direction, thenBy);
    }
    sorted ??= sortRows(rows, sortBy, direction, thenBy);
    last = { rows, sorted, sortBy, direction, thenBy };
    return sorted;
  };
}

function placeRows<Row>(
  sorted: readonly Row[],
  rows: readonly Row[],
  added: readonly Row[],
  sortBy: (row: Row) => SortValue,
  direction: SortDirection,
  thenBy: ((row: Row) => SortValue) | undefined,
): Row[] {
  const now = new Set(rows);
  const kept = sorted.filter((row) => now.has(row));
  const compare = compareKeyed(direction);
  const keyOf = (row: Row): Keyed => ({ value: sortBy(row), tie: thenBy?.(row) });
  for (const row of added) {
    const key = keyOf(row);
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(keyOf(kept[middle] as Row), key) <= 0) low = middle + 1;
      else high = middle;
    }
    kept.splice(low, 0, row);
  }
  return kept;
}

const isEmpty = (value: SortValue) => value === null || value === undefined || value === '';

/** Money as the lists hold it (a dollars string, "1234.50"), as a number to sort by; null for none or a malformed one. */
export function moneySortValue(amount: string | null | undefined): number | null {
  if (amount === null || amount === undefined || amount === '') return null;
  const value = Number(amount);
  return Number.isFinite(value) ? value : null;
}

/** The phone's sort choice names for columns of amounts and of dates. */
export const NUMBER_ORDER = ['(lowest first)', '(highest first)'] as const;
export const DATE_ORDER = ['(oldest first)', '(newest first)'] as const;

/** A date or timestamp (ISO) as a number to sort by: a plain comparison, not the collator's, for the long lists of sales and payments. */
export function dateSortValue(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : time;
}
