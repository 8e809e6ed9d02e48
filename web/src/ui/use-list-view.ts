import { useEffect, useMemo, useState } from 'react';
import { createTextIndex, normaliseNeedle } from '../features/horses/name-search.ts';
import { whenIdle } from '../lib/when-idle.ts';
import type { Column } from './DataTable.tsx';
import { sortRows, type ListSort } from './list-sort.ts';

export type ListView<Row> = {
  search: string;
  setSearch: (search: string) => void;
  sort: ListSort;
  setSort: (sort: ListSort) => void;
  /** The rows found, in the order chosen; undefined while the list is read. */
  shown: Row[] | undefined;
  /** How many rows the list has in all; undefined while it is read. */
  total: number | undefined;
};

/**
 * [B6] A list's search and order, answered in memory from the rows its query read, as the
 * horse list does (name-search.ts): the rows are sorted once per list or order chosen, and
 * a keystroke scans only the texts (`textOf`: the fields the list searches), in that order.
 * `initialSort`'s column also orders the rows equal in another.
 */
export function useListView<Row>(
  rows: Row[] | undefined,
  columns: readonly Column<Row>[],
  textOf: (row: Row) => string,
  initialSort: ListSort,
): ListView<Row> {
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState(initialSort);
  const sortBy = columns.find((column) => column.key === sort.key)?.sortValue;
  // Rows equal in the column chosen keep the list's first order among them.
  const thenBy = columns.find((column) => column.key === initialSort.key)?.sortValue;
  const sorted = useMemo(
    () => (rows && sortBy ? sortRows(rows, sortBy, sort.direction, thenBy) : rows),
    [rows, sortBy, sort.direction, thenBy],
  );
  const index = useMemo(() => sorted && createTextIndex(sorted, textOf), [sorted, textOf]);
  useEffect(() => (index ? whenIdle(() => index.warm()) : undefined), [index]);
  const needle = normaliseNeedle(search);
  const shown = useMemo(() => index?.search(needle), [index, needle]);
  return { search, setSearch, sort, setSort, shown, total: rows?.length };
}

/** The texts of a row a search looks in, as one (each lower-cased by the index). */
export const searchText = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join('\n');
