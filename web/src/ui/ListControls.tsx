import type { ReactNode } from 'react';
import type { Column } from './DataTable.tsx';
import type { ListSort } from './list-sort.ts';
import type { ListView } from './use-list-view.ts';

type Props<Row> = {
  /** What the list holds, plural and lower case ('suppliers'): the search's label and the count's noun. */
  noun: string;
  /** The singular, for a count of one ('supplier'). */
  one: string;
  /** What the search looks in, for its placeholder ('name, phone or e-mail'). */
  searchHint: string;
  view: ListView<Row>;
  columns: readonly Column<Row>[];
  /** More controls beside the search (filters). */
  children?: ReactNode;
  /** The list has no headers to sort by on desks either (a timeline): the sort choice shows on every screen. */
  noHeaders?: boolean;
};

/**
 * [B6] A list's search box, its order for phones (desks sort by the table's headers) and the
 * count of what it shows: '12 suppliers', or '3 of 200 suppliers' while a search narrows it.
 */
export function ListControls<Row>({ noun, one, searchHint, view, columns, children, noHeaders = false }: Props<Row>) {
  const { search, setSearch: onSearch, sort, setSort: onSort, shown, total } = view;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <label className="input w-full max-w-md flex-1">
          <span className="sr-only">Search {noun}</span>
          <input type="search" placeholder={`Search by ${searchHint}…`} value={search} onChange={(event) => onSearch(event.target.value)} />
        </label>
        {children}
        <SortChoice columns={columns} sort={sort} onSort={onSort} everywhere={noHeaders} />
      </div>
      <ListCount noun={noun} one={one} shown={shown?.length} total={total} />
    </div>
  );
}

/** [B6] On phones the cards have no headers: the order is a choice of column and direction. */
export function SortChoice<Row>({
  columns,
  sort,
  onSort,
  everywhere = false,
}: {
  columns: readonly Column<Row>[];
  sort: ListSort;
  onSort: (sort: ListSort) => void;
  /** Shown on desks too (a list with no headers). */
  everywhere?: boolean;
}) {
  return (
    <label className={`select w-full sm:w-auto ${everywhere ? '' : 'md:hidden'}`}>
      <span className="sr-only">Sort by</span>
      <select
        aria-label="Sort by"
        value={`${sort.key}:${sort.direction}`}
        onChange={(event) => {
          const [key = '', direction] = event.target.value.split(':');
          onSort({ key, direction: direction === 'desc' ? 'desc' : 'asc' });
        }}
      >
        {columns
          .filter((column) => column.sortValue)
          .flatMap((column) => [
            <option key={`${column.key}:asc`} value={`${column.key}:asc`}>
              {column.header} {column.sortNames?.[0] ?? '(A–Z)'}
            </option>,
            <option key={`${column.key}:desc`} value={`${column.key}:desc`}>
              {column.header} {column.sortNames?.[1] ?? '(Z–A)'}
            </option>,
          ])}
      </select>
    </label>
  );
}

/** '12 suppliers', '1 supplier', '3 of 200 suppliers'; nothing while the list is read. */
export function countText(noun: string, one: string, shown: number, total: number): string {
  const word = total === 1 ? one : noun;
  return shown === total ? `${total.toLocaleString()} ${word}` : `${shown.toLocaleString()} of ${total.toLocaleString()} ${word}`;
}

export function ListCount({
  noun,
  one,
  shown,
  total,
}: {
  noun: string;
  one: string;
  shown: number | undefined;
  total: number | undefined;
}) {
  return (
    <p className="text-sm text-base-content/70" aria-live="polite" data-testid="list-count">
      {shown !== undefined && total !== undefined ? countText(noun, one, shown, total) : ' '}
    </p>
  );
}
