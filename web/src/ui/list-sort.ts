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
  const sign = direction === 'asc' ? 1 : -1;
  keyed.sort((x, y) => {
    const order = isEmpty(x.value) || isEmpty(y.value) ? compareSortValues(x.value, y.value) : sign * compareSortValues(x.value, y.value);
    return order || (thenBy ? compareSortValues(x.tie, y.tie) : 0) || x.index - y.index;
  });
  return keyed.map((entry) => entry.row);
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
