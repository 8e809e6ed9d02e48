import { memo, useId, useMemo, useRef, type ReactNode } from 'react';
import type { ListSort, SortValue } from './list-sort.ts';
import { RowMenu } from './RowMenu.tsx';
import { useIsDesk } from './use-media-query.ts';
import { CARD_WINDOW_FROM, useWindowRows } from './use-window-rows.ts';

/** [B1]: a column has a header, a key and an optional custom cell. */
export type Column<Row> = {
  header: string;
  key: string;
  cell?: (row: Row) => ReactNode;
  /** [B6] What the column sorts by; a column without it does not sort. */
  sortValue?: (row: Row) => SortValue;
  /** The two directions' names in the phone's sort choice; '(A–Z)' and '(Z–A)' unless given. */
  sortNames?: readonly [string, string];
  /**
   * [B16] Where a phone's compact row shows the column: `title` (line one; the first column
   * unless another is), `status` (line one, at its end), `fact` (line two, joined by ' · ';
   * the default), `end` (after both lines: buttons of its own, such as a contact's call and
   * e-mail) or `none` (the details show it).
   */
  phone?: PhonePlace;
  /** What the compact row shows for the column, when not its cell. */
  phoneCell?: (row: Row) => ReactNode;
  /** A title column's picture, before both lines of the compact row. */
  phoneLead?: (row: Row) => ReactNode;
  /** `false`: the desk table leaves the column out (another of its cells shows it there). */
  desk?: boolean;
};

export type PhonePlace = 'title' | 'status' | 'fact' | 'end' | 'none';

/** A row action: label (its accessible name), icon, handler, optional destructive style. */
export type RowAction<Row> = {
  label: string;
  icon?: ReactNode;
  onClick: (row: Row) => void;
  destructive?: boolean;
  /** Leave the action out for some rows (e.g. Deactivate on an inactive item). */
  hidden?: (row: Row) => boolean;
  /** [B16] On phones a tap on the row does it (View Details), and the "⋯" menu leaves it out. */
  main?: boolean;
  /** A phone's row only: on desks the row offers it in a cell of its own (a name that links to the details). */
  phoneOnly?: boolean;
};

export type DataTableProps<Row extends { id: string }> = {
  rows: Row[] | undefined;
  columns: Column<Row>[];
  actions?: RowAction<Row>[];
  /** Also shown while `rows` is undefined (the first live query has not answered). */
  loading?: boolean;
  emptyText?: string;
  /** Names the table (and, on phones, the list of cards) for assistive technology. */
  label?: string;
  /** [B6] The order shown; with `onSort`, a desk table's sortable headers are buttons. */
  sort?: ListSort | undefined;
  onSort?: ((sort: ListSort) => void) | undefined;
};

/** [B1]: the loading skeleton has 5 rows. */
export const SKELETON_ROWS = 5;
export const DEFAULT_EMPTY_TEXT = 'No data available';

function cellOf<Row>(column: Column<Row>, row: Row): ReactNode {
  if (column.cell) return column.cell(row);
  const value = (row as Record<string, unknown>)[column.key];
  return value === null || value === undefined ? '' : String(value);
}

/** On desks a table; on phones (< md) one readable card per row. */
export function DataTable<Row extends { id: string }>({
  rows,
  columns,
  actions = [],
  loading = false,
  emptyText = DEFAULT_EMPTY_TEXT,
  label,
  sort,
  onSort,
}: DataTableProps<Row>) {
  const desk = useIsDesk();
  const deskColumns = useMemo(() => columns.filter((column) => column.desk !== false), [columns]);
  const List = desk ? Table : CompactList;
  // Kept while `actions` is: the rows in view are memoised on it.
  const shown = useMemo(() => (desk ? actions.filter((action) => !action.phoneOnly) : actions), [desk, actions]);
  return (
    <List
      rows={loading ? undefined : rows}
      columns={desk ? deskColumns : columns}
      actions={shown}
      emptyText={emptyText}
      label={label}
      sort={sort}
      onSort={onSort}
    />
  );
}

type ListProps<Row> = {
  rows: Row[] | undefined;
  columns: Column<Row>[];
  actions: RowAction<Row>[];
  emptyText: string;
  label: string | undefined;
  sort: ListSort | undefined;
  onSort: ((sort: ListSort) => void) | undefined;
};

/** Estimated heights before the first measurement: a table row with a photo, a compact row. */
const ROW_ESTIMATE = 64;
const COMPACT_ESTIMATE = 65;

/**
 * Long lists render only the rows in view (use-window-rows.ts); spacer rows keep the
 * scroll height, and aria-rowcount/aria-rowindex tell assistive technology the real size.
 */
function Table<Row extends { id: string }>({ rows, columns, actions, emptyText, label, sort, onSort }: ListProps<Row>) {
  const table = useRef<HTMLTableElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  const count = rows?.length ?? 0;
  // The table's box, not the tbody's: a ResizeObserver on a table section is not reported everywhere.
  const view = useWindowRows(body, count, ROW_ESTIMATE, { box: table, rows: 'tr[data-row]' });
  const span = columns.length + (actions.length > 0 ? 1 : 0);
  const spacer = (height: number, key: string) =>
    height > 0 && (
      // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row holds no content and takes no focus; Biome reads any tr as a focusable row
      <tr key={key} aria-hidden="true" data-testid="row-spacer">
        <td colSpan={span} style={{ height, padding: 0, border: 0 }} />
      </tr>
    );
  return (
    <div className="overflow-x-auto rounded-box border border-base-300 bg-base-100">
      <table
        ref={table}
        className="table"
        aria-label={label}
        aria-busy={rows === undefined}
        aria-rowcount={view.windowed ? count + 1 : undefined}
      >
        <thead>
          <tr aria-rowindex={view.windowed ? 1 : undefined}>
            {columns.map((column) => (
              <HeaderCell key={column.key} column={column} sort={sort} onSort={onSort} />
            ))}
            {actions.length > 0 && (
              <th scope="col" className="text-right">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody ref={body}>
          {rows === undefined ? (
            Array.from({ length: SKELETON_ROWS }, (_, i) => (
              // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a placeholder row takes no focus; Biome reads any tr as a focusable row
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity and never reorder
              <tr key={i} aria-hidden="true" data-testid="skeleton-row">
                <td colSpan={span}>
                  <div className="skeleton h-8 w-full" />
                </td>
              </tr>
            ))
          ) : rows.length === 0 ? (
            <tr>
              <td colSpan={span} className="py-10 text-center text-base-content/60">
                {emptyText}
              </td>
            </tr>
          ) : (
            <>
              {spacer(view.before, 'before')}
              {rows.slice(view.start, view.end).map((row, i) => (
                <TableRow
                  key={row.id}
                  row={row}
                  columns={columns}
                  actions={actions}
                  index={view.windowed ? view.start + i + 2 : undefined}
                />
              ))}
              {spacer(view.after, 'after')}
            </>
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * [B6] A sortable column's header is a button: a first press sorts by it ascending, the next
 * reverses it. `aria-sort` tells assistive technology which column orders the rows.
 */
function HeaderCell<Row>({ column, sort, onSort }: { column: Column<Row>; sort: ListSort | undefined; onSort: ListProps<Row>['onSort'] }) {
  if (!column.sortValue || !onSort) return <th scope="col">{column.header}</th>;
  const direction = sort?.key === column.key ? sort.direction : undefined;
  return (
    <th scope="col" aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}>
      <button
        type="button"
        className="inline-flex items-center gap-1 hover:underline"
        onClick={() => onSort({ key: column.key, direction: direction === 'asc' ? 'desc' : 'asc' })}
      >
        {column.header}
        <span aria-hidden="true" className={direction ? '' : 'opacity-30'}>
          {direction === 'desc' ? '▼' : '▲'}
        </span>
      </button>
    </th>
  );
}

type RowProps<Row> = { row: Row; columns: Column<Row>[]; actions: RowAction<Row>[]; index: number | undefined };

/** Memoised: scrolling re-renders the window, not the rows already in it. */
const TableRow = memo(function TableRow<Row extends { id: string }>({ row, columns, actions, index }: RowProps<Row>) {
  return (
    <tr className="hover:bg-base-200/50" data-row="" aria-rowindex={index}>
      {columns.map((column) => (
        <td key={column.key}>{cellOf(column, row)}</td>
      ))}
      {actions.length > 0 && (
        <td className="text-right">
          <RowActions row={row} actions={actions} />
        </td>
      )}
    </tr>
  );
}) as <Row extends { id: string }>(props: RowProps<Row>) => ReactNode;

/**
 * CARD_KEYS: a phone's rows are keyed by their place in the list, not by their record: when the
 * rows change (a search typed, a filter chosen), each row in view takes the new record in
 * place, its text and handlers updated, instead of every row's elements made, styled and
 * laid out anew: most of a search key's task on a phone during a start. Scrolling costs the same either way: a row
 * whose place stays in view keeps its record and is not rendered again. A row holds no state
 * of its own but an open "⋯" menu; pictures are keyed by their address (HorsePhoto, UserAvatar), so a row never
 * shows another record's picture while the new one loads. Desk tables keep a row per record (a
 * row's focus follows its record when the list changes).
 */
function CompactList<Row extends { id: string }>({ rows, columns, actions, emptyText, label }: ListProps<Row>) {
  const list = useRef<HTMLUListElement>(null);
  const count = rows?.length ?? 0;
  const view = useWindowRows(list, count, COMPACT_ESTIMATE, { box: list, rows: ':scope > li', windowFrom: CARD_WINDOW_FROM });
  const places = useMemo(() => phonePlaces(columns), [columns]);
  if (rows === undefined) {
    return (
      <div className="space-y-2" aria-busy="true">
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity and never reorder
          <div key={i} className="skeleton h-14 w-full" aria-hidden="true" data-testid="skeleton-row" />
        ))}
      </div>
    );
  }
  if (rows.length === 0) {
    return <p className="rounded-box border border-base-300 bg-base-100 py-10 text-center text-base-content/60">{emptyText}</p>;
  }
  return (
    <ul
      ref={list}
      className="divide-y divide-base-300 rounded-box border border-base-300 bg-base-100"
      aria-label={label}
      style={view.windowed ? { paddingTop: view.before, paddingBottom: view.after } : undefined}
    >
      {rows.slice(view.start, view.end).map((row, i) => (
        <CompactRow
          // biome-ignore lint/suspicious/noArrayIndexKey: a row is a place in the list (CARD_KEYS)
          key={view.start + i}
          row={row}
          places={places}
          actions={actions}
          index={view.windowed ? view.start + i + 1 : undefined}
          setSize={view.windowed ? count : undefined}
        />
      ))}
    </ul>
  );
}

type Places<Row> = Record<PhonePlace, Column<Row>[]>;

/** [B16] The columns by where a compact row shows them. */
function phonePlaces<Row>(columns: Column<Row>[]): Places<Row> {
  const places: Places<Row> = { title: [], status: [], fact: [], end: [], none: [] };
  const titled = columns.some((column) => column.phone === 'title');
  columns.forEach((column, i) => {
    places[column.phone ?? (i === 0 && !titled ? 'title' : 'fact')].push(column);
  });
  return places;
}

const phoneCellOf = <Row,>(column: Column<Row>, row: Row): ReactNode => (column.phoneCell ?? ((each: Row) => cellOf(column, each)))(row);

type CompactRowProps<Row> = {
  row: Row;
  places: Places<Row>;
  actions: RowAction<Row>[];
  index: number | undefined;
  setSize: number | undefined;
};

/**
 * [B16] A phone's compact row: the name and status on line one, the key facts on line two; a
 * tap opens the record's details where it has them, and its other actions are in "⋯".
 */
const CompactRow = memo(function CompactRow<Row extends { id: string }>({ row, places, actions, index, setSize }: CompactRowProps<Row>) {
  const titleId = useId();
  const shown = actions.filter((action) => !action.hidden?.(row));
  const main = shown.find((action) => action.main);
  const rest = shown.filter((action) => action !== main);
  const facts: ReactNode[] = [];
  for (const column of places.fact) {
    const fact = phoneCellOf(column, row);
    if (fact === '' || fact === null || fact === undefined || fact === false) continue;
    if (facts.length > 0) facts.push(' · ');
    facts.push(<span key={column.key}>{fact}</span>);
  }
  const title = places.title.map((column) => <span key={column.key}>{phoneCellOf(column, row)}</span>);
  const lines = (
    <>
      {places.title.map(
        (column) =>
          column.phoneLead && (
            <span key={column.key} className="shrink-0">
              {column.phoneLead(row)}
            </span>
          ),
      )}
      <span className="min-w-0 flex-1">
        <span className="flex items-center justify-between gap-2">
          <span id={titleId} className="truncate font-semibold">
            {title}
          </span>
          {places.status.map((column) => (
            <span key={column.key} className="shrink-0">
              {phoneCellOf(column, row)}
            </span>
          ))}
        </span>
        {facts.length > 0 && <span className="block truncate text-sm text-base-content/70">{facts}</span>}
      </span>
    </>
  );
  const body = 'flex min-h-14 min-w-0 flex-1 items-center gap-3 py-2 pl-3 text-left';
  return (
    <li className="flex items-center gap-1 pr-1" data-row="" aria-posinset={index} aria-setsize={setSize}>
      {main ? (
        <button type="button" className={`${body} rounded-box active:bg-base-200`} onClick={() => main.onClick(row)}>
          {lines}
          <span className="sr-only">, {main.label}</span>
        </button>
      ) : (
        <div className={body}>{lines}</div>
      )}
      {places.end.map((column) => (
        <span key={column.key} className="flex shrink-0 items-center">
          {phoneCellOf(column, row)}
        </span>
      ))}
      {rest.length > 0 && (
        <RowMenu title={title} titleId={titleId} actions={rest.map((action) => ({ ...action, run: () => action.onClick(row) }))} />
      )}
    </li>
  );
}) as <Row extends { id: string }>(props: CompactRowProps<Row>) => ReactNode;

/** A desk row's actions: quiet icon buttons named by their labels. */
function RowActions<Row>({ row, actions }: { row: Row; actions: RowAction<Row>[] }) {
  return (
    <div className="inline-flex flex-wrap justify-end gap-1">
      {actions
        .filter((action) => !action.hidden?.(row))
        .map((action) => (
          <button
            key={action.label}
            type="button"
            // docs/design.md "Buttons": a destructive action stays quiet (ghost, red text) until its confirmation.
            className={`btn btn-ghost btn-sm ${action.destructive ? 'text-error' : ''}`}
            aria-label={action.label}
            title={action.label}
            onClick={() => action.onClick(row)}
          >
            {action.icon && <span aria-hidden="true">{action.icon}</span>}
            {!action.icon && <span>{action.label}</span>}
          </button>
        ))}
    </div>
  );
}
