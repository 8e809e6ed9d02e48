import type { Table } from 'dexie';

/**
 * Rows per request when a whole table is read (what is due, the Dashboard's figures, the
 * projection's comparison). Chromium's IndexedDB runs the requests of an origin's databases
 * one at a time, so a request for a whole table holds every other read and write of the
 * device until it is answered: the bell's read of what is due, in one request per table,
 * would keep a horse created at the start waiting for seconds on a phone. A page is a short
 * request even there, so another request waits at most about that long per reader.
 */
export const WIDE_READ_PAGE = 250;

/**
 * Each page of `table`'s rows in primary-key order, `page` rows per request, handed to
 * `onPage` and awaited before the next is asked for. Each request is a transaction of its
 * own: a write made between two pages shows in the rows after it (a rechecked read runs
 * again after it anyway). The table's primary key must be a key path of one string field.
 */
export async function forEachPageByKey<Row, Insert = Row>(
  table: Table<Row, string, Insert>,
  onPage: (rows: Row[]) => void | Promise<void>,
  page = WIDE_READ_PAGE,
): Promise<void> {
  const keyPath = table.schema.primKey.keyPath;
  if (typeof keyPath !== 'string' || keyPath === '') throw new Error(`${table.name}: read by key needs a key path of one field`);
  let after: string | undefined;
  for (;;) {
    const rows = await (after === undefined ? table.orderBy(':id') : table.where(':id').above(after)).limit(page).toArray();
    await onPage(rows);
    if (rows.length < page) return;
    after = (rows[rows.length - 1] as Record<string, unknown>)[keyPath] as string;
  }
}

/** Every row of `table` in primary-key order, read `page` rows per request (forEachPageByKey). */
export async function readAllByKey<Row, Insert = Row>(table: Table<Row, string, Insert>, page = WIDE_READ_PAGE): Promise<Row[]> {
  const all: Row[] = [];
  await forEachPageByKey(
    table,
    (rows) => {
      for (const row of rows) all.push(row);
    },
    page,
  );
  return all;
}
