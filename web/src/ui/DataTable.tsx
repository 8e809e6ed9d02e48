import type { ReactNode } from 'react';
import { useIsDesk } from './use-media-query.ts';

/** SPEC "Shared table behaviour": a column has a header, a key and an optional custom cell. */
export type Column<Row> = {
  header: string;
  key: string;
  cell?: (row: Row) => ReactNode;
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
};

/** SPEC §9: the loading skeleton has 5 rows. */
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
}: DataTableProps<Row>) {
  const desk = useIsDesk();
  const busy = loading || rows === undefined;
  const shown = rows ?? [];
  if (!desk) return <CardList rows={busy ? undefined : shown} columns={columns} actions={actions} emptyText={emptyText} label={label} />;

  const span = columns.length + (actions.length > 0 ? 1 : 0);
  return (
    <div className="overflow-x-auto rounded-box border border-base-300 bg-base-100">
      <table className="table" aria-label={label} aria-busy={busy}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col">
                {column.header}
              </th>
            ))}
            {actions.length > 0 && (
              <th scope="col" className="text-right">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {busy ? (
            Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <tr key={i} aria-hidden="true" data-testid="skeleton-row">
                <td colSpan={span}>
                  <div className="skeleton h-8 w-full" />
                </td>
              </tr>
            ))
          ) : shown.length === 0 ? (
            <tr>
              <td colSpan={span} className="py-10 text-center text-base-content/60">
                {emptyText}
              </td>
            </tr>
          ) : (
            shown.map((row) => (
              <tr key={row.id} className="hover:bg-base-200/50">
                {columns.map((column) => (
                  <td key={column.key}>{cellOf(column, row)}</td>
                ))}
                {actions.length > 0 && (
                  <td className="text-right">
                    <RowActions row={row} actions={actions} compact />
                  </td>
                )}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

type CardListProps<Row> = {
  rows: Row[] | undefined;
  columns: Column<Row>[];
  actions: RowAction<Row>[];
  emptyText: string;
  label: string | undefined;
};

function CardList<Row extends { id: string }>({ rows, columns, actions, emptyText, label }: CardListProps<Row>) {
  if (rows === undefined) {
    return (
      <div className="space-y-3" aria-busy="true">
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          <div key={i} className="skeleton h-24 w-full" aria-hidden="true" data-testid="skeleton-row" />
        ))}
      </div>
    );
  }
  if (rows.length === 0) {
    return <p className="rounded-box border border-base-300 bg-base-100 py-10 text-center text-base-content/60">{emptyText}</p>;
  }
  const [first, ...rest] = columns;
  return (
    <ul className="space-y-3" aria-label={label}>
      {rows.map((row) => (
        <li key={row.id} className="card card-border bg-base-100">
          <div className="card-body gap-2 p-4">
            {first && <div className="font-semibold">{cellOf(first, row)}</div>}
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              {rest.map((column) => (
                <div key={column.key} className="contents">
                  <dt className="text-base-content/60">{column.header}</dt>
                  <dd className="min-w-0 break-words">{cellOf(column, row)}</dd>
                </div>
              ))}
            </dl>
            {actions.length > 0 && (
              <div className="card-actions justify-end">
                <RowActions row={row} actions={actions} compact={false} />
              </div>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

function RowActions<Row>({ row, actions, compact }: { row: Row; actions: RowAction<Row>[]; compact: boolean }) {
  return (
    <div className="inline-flex flex-wrap justify-end gap-1">
      {actions
        .filter((action) => !action.hidden?.(row))
        .map((action) => (
          <button
            key={action.label}
            type="button"
            className={`btn btn-sm ${compact ? 'btn-ghost' : 'btn-outline'} ${action.destructive ? 'text-error' : ''}`}
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
