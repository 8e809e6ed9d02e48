import { Fragment, memo, useRef, type ReactNode } from 'react';
import type { ListSort, SortValue } from './list-sort.ts';
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
};

/** A row action: label (its accessible name), icon, handler, optional destructive style. */
export type RowAction<Row> = {
  label: string;
  icon?: ReactNode;
  onClick: (row: Row) => void;
  destructive?: boolean;
  /** Leave the action out for some rows (e.g. Deactivate on an inactive item). */
  hidden?: (row: Row) => boolean;
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
  const List = useIsDesk() ? Table : CardList;
  return (
    <List
      rows={loading ? undefined : rows}
      columns={columns}
      actions={actions}
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

/** Estimated heights before the first measurement: a table row with a photo, a card. */
const ROW_ESTIMATE = 64;
const CARD_ESTIMATE = 220;

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
          <RowActions row={row} actions={actions} compact />
        </td>
      )}
    </tr>
  );
}) as <Row extends { id: string }>(props: RowProps<Row>) => ReactNode;

/**
 * CARD_KEYS: a phone's cards are keyed by their place in the list, not by their row: when the
 * rows change (a search typed, a filter chosen), each card in view takes the new row in
 * place, its text and handlers updated, instead of every card's elements made, styled and
 * laid out anew: most of a search key's task on a phone during a start. Scrolling costs the same either way: a card
 * whose place stays in view keeps its row and is not rendered again. A card holds no state
 * of its own; pictures are keyed by their address (HorsePhoto, UserAvatar), so a card never
 * shows another row's picture while the new one loads. Desk tables keep a row per record (a
 * row's focus follows its record when the list changes).
 */
function CardList<Row extends { id: string }>({ rows, columns, actions, emptyText, label }: ListProps<Row>) {
  const list = useRef<HTMLUListElement>(null);
  const count = rows?.length ?? 0;
  const view = useWindowRows(list, count, CARD_ESTIMATE, { box: list, rows: ':scope > li', windowFrom: CARD_WINDOW_FROM });
  if (rows === undefined) {
    return (
      <div className="space-y-3" aria-busy="true">
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity and never reorder
          <div key={i} className="skeleton h-24 w-full" aria-hidden="true" data-testid="skeleton-row" />
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
      className="flex flex-col gap-3"
      aria-label={label}
      style={view.windowed ? { paddingTop: view.before, paddingBottom: view.after } : undefined}
    >
      {rows.slice(view.start, view.end).map((row, i) => (
        <Card
          // biome-ignore lint/suspicious/noArrayIndexKey: a card is a place in the list (CARD_KEYS)
          key={view.start + i}
          row={row}
          columns={columns}
          actions={actions}
          index={view.windowed ? view.start + i + 1 : undefined}
          setSize={view.windowed ? count : undefined}
        />
      ))}
    </ul>
  );
}

const Card = memo(function Card<Row extends { id: string }>({
  row,
  columns,
  actions,
  index,
  setSize,
}: RowProps<Row> & { setSize: number | undefined }) {
  const [first, ...rest] = columns;
  return (
    <li className="card card-border bg-base-100" aria-posinset={index} aria-setsize={setSize}>
      <div className="card-body gap-2 p-4">
        {first && <div className="font-semibold">{cellOf(first, row)}</div>}
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          {/*
            Each pair straight in the grid, in no wrapper: one per pair was 6 of a horse card's
            ~48 elements, each styled and laid out again whenever the list changes or a dialog opens.
          */}
          {rest.map((column) => (
            <Fragment key={column.key}>
              <dt className="text-base-content/60">{column.header}</dt>
              <dd className="min-w-0 break-words">{cellOf(column, row)}</dd>
            </Fragment>
          ))}
        </dl>
        {actions.length > 0 && (
          <div className="card-actions justify-end">
            <RowActions row={row} actions={actions} compact={false} />
          </div>
        )}
      </div>
    </li>
  );
}) as <Row extends { id: string }>(props: RowProps<Row> & { setSize: number | undefined }) => ReactNode;

function RowActions<Row>({ row, actions, compact }: { row: Row; actions: RowAction<Row>[]; compact: boolean }) {
  return (
    <div className="inline-flex flex-wrap justify-end gap-1">
      {actions
        .filter((action) => !action.hidden?.(row))
        .map((action) => (
          <button
            key={action.label}
            type="button"
            // docs/design.md "Buttons": a destructive action stays quiet (ghost, red text) until its confirmation.
            className={`btn btn-sm ${compact || action.destructive ? 'btn-ghost' : 'btn-outline'} ${action.destructive ? 'text-error' : ''}`}
            aria-label={action.label}
            title={action.label}
            onClick={() => action.onClick(row)}
          >
            {action.icon && <span aria-hidden="true">{action.icon}</span>}
            {(!compact || !action.icon) && <span>{action.label}</span>}
          </button>
        ))}
    </div>
  );
}
