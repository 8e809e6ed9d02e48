import type { DBCore, DBCoreCursor, DBCoreKeyRange, DBCoreTable, DBCoreTransaction, Middleware, Transaction } from 'dexie';
import { forEachPageByKey } from './read-by-key.ts';

/**
 * The table from a reference's number to its id (`n` given by IndexedDB's key generator,
 * which never gives a number twice, even after an abort or a clear; `id` unique).
 */
export const REFERENCE_NUMBERS = 'referenceNumbers';
export const REFERENCE_NUMBERS_SCHEMA = '++n, &id';

/** The table whose references are stored as numbers. */
const NUMBERED_TABLE = 'horses';

/**
 * The horse's references to lookup items, stored as numbers: IndexedDB hands a number back
 * without allocating, where each id was a string of its own on every row read, ~48 bytes
 * each, four per horse.
 * `ownerId` stays an id: the table is indexed by it.
 */
const NUMBERED_FIELDS = ['breedId', 'colorId', 'genderId', 'statusId'] as const;

type NumberRow = { n: number; id: string };

/** DBCoreRangeType.Range (a const enum the build cannot import). */
const RANGE = 2 as DBCoreKeyRange['type'];
const ANY = 3 as DBCoreKeyRange['type'];

type Row = Record<string, unknown>;
const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null;

/**
 * Dexie middleware, below all of Dexie's own (level -2): everything above it, live queries
 * and their change tracking included, sees ids; IndexedDB holds numbers. Numbers are learnt
 * once per connection and kept (a number is never given to another id); a number given in a
 * transaction is kept only once that transaction has committed, since an abort takes it back
 * and the key generator may give it again.
 */
export const numberedReferences: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'NumberedReferences',
  level: -2,
  create: (down) => {
    const idOf = new Map<number, string>();
    const numberOf = new Map<string, number>();
    let highest = 0;
    /** Numbers given in a transaction that has not committed yet. */
    const given = new WeakMap<DBCoreTransaction, Map<string, number>>();
    const numbers = () => down.table(REFERENCE_NUMBERS);

    const learn = (n: number, id: string) => {
      idOf.set(n, id);
      numberOf.set(id, n);
      if (n > highest) highest = n;
    };

    /** Reads the numbers given since the highest this connection knows (the table only grows). */
    const readNew = (trans: DBCoreTransaction) => {
      const table = numbers();
      const range: DBCoreKeyRange =
        highest === 0
          ? { type: ANY, lower: undefined, upper: undefined }
          : { type: RANGE, lower: highest, lowerOpen: true, upper: undefined };
      return table.query({ trans, values: true, query: { index: table.schema.primaryKey, range } }).then(({ result }) => {
        const mine = given.get(trans);
        for (const row of result as NumberRow[]) {
          if (typeof row?.n !== 'number' || typeof row.id !== 'string' || mine?.has(row.id)) continue;
          learn(row.n, row.id);
        }
      });
    };

    /**
     * Ids in place of the numbers `rows` hold; false if a number was not known. Indexed loops:
     * a start runs this before the code is optimised, and there `for…of` makes an iterator and
     * a result object per step.
     */
    const toIds = (rows: readonly unknown[]): boolean => {
      let known = true;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        if (!isRow(row)) continue;
        for (let f = 0; f < NUMBERED_FIELDS.length; f++) {
          const field = NUMBERED_FIELDS[f]!;
          const value = row[field];
          if (typeof value !== 'number') continue;
          const id = idOf.get(value);
          if (id === undefined) known = false;
          else row[field] = id;
        }
      }
      return known;
    };

    /** `rows` with ids in place of numbers, reading the numbers given since if one is new. A number no row of the table names (none is ever deleted) is left as it is. */
    const named = <T>(trans: DBCoreTransaction, rows: readonly unknown[], result: T): T | Promise<T> =>
      toIds(rows)
        ? result
        : readNew(trans).then(() => {
            toIds(rows);
            return result;
          });

    const numberFor = (trans: DBCoreTransaction, id: string) => numberOf.get(id) ?? given.get(trans)?.get(id);

    /** Each transaction's last giving, which its next one waits for (give, below). */
    const giving = new WeakMap<DBCoreTransaction, Promise<void>>();

    /**
     * Gives a number to each of `ids` that has none (read first: another connection may have
     * given it). A transaction's givings run one after another: a first sync sends a piece of
     * horses while the piece before is still being stored, both naming lookup items with no
     * number yet, and had both added them, the second add would break the table's unique
     * `id` and abort the whole transaction.
     */
    const give = (trans: DBCoreTransaction, ids: Set<string>): Promise<void> => {
      const done = (giving.get(trans) ?? Promise.resolve()).then(() => giveNow(trans, ids));
      // A failed giving fails its own write (and so the transaction); the next one still runs.
      giving.set(
        trans,
        done.catch(() => {}),
      );
      return done;
    };

    const giveNow = (trans: DBCoreTransaction, ids: Set<string>) =>
      readNew(trans).then(() => {
        const missing = [...ids].filter((id) => numberFor(trans, id) === undefined);
        if (missing.length === 0) return;
        return numbers()
          .mutate({ type: 'add', trans, values: missing.map((id) => ({ id })) })
          .then(({ numFailures, failures, results }) => {
            if (numFailures > 0) throw Object.values(failures)[0];
            let mine = given.get(trans);
            if (!mine) {
              const pending = new Map<string, number>();
              given.set(trans, pending);
              mine = pending;
              (trans as unknown as EventTarget).addEventListener('complete', () => {
                for (const [id, n] of pending) learn(n, id);
              });
            }
            missing.forEach((id, i) => mine.set(id, results![i] as number));
          });
      });

    /** The row as stored: a copy with numbers for ids (the caller's object is left alone). */
    const toNumbers = (trans: DBCoreTransaction, row: unknown): unknown => {
      if (!isRow(row)) return row;
      let stored: Row | undefined;
      for (let f = 0; f < NUMBERED_FIELDS.length; f++) {
        const field = NUMBERED_FIELDS[f]!;
        const value = row[field];
        if (typeof value !== 'string') continue;
        stored ??= { ...row };
        stored[field] = numberFor(trans, value);
      }
      return stored ?? row;
    };

    /**
     * The ids `rows` name that have no number yet (indexed loops, as toIds: a first sync writes
     * 10,000 horses through here). Throws for a number in a numbered field: callers write ids,
     * and a number would be stored as it is and read back as whatever id has that number, so
     * such a write is refused whole, before anything of it is stored.
     */
    const unnumbered = (trans: DBCoreTransaction, rows: readonly unknown[]): Set<string> => {
      const ids = new Set<string>();
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        if (!isRow(row)) continue;
        for (let f = 0; f < NUMBERED_FIELDS.length; f++) {
          const field = NUMBERED_FIELDS[f]!;
          const value = row[field];
          if (typeof value === 'number') throw new TypeError(`${NUMBERED_TABLE}.${field} must be an id or null, not a number`);
          if (typeof value === 'string' && numberFor(trans, value) === undefined) ids.add(value);
        }
      }
      return ids;
    };

    /**
     * The cursor, its value with ids (every number given is read before it opens). `key` and
     * `primaryKey` are read from the cursor itself: a browser's IDBCursor answers them only
     * to itself, not to an object made from it (as Dexie's own virtual-index cursor does).
     */
    const namedCursor = (cursor: DBCoreCursor): DBCoreCursor =>
      Object.create(cursor, {
        key: { get: () => cursor.key },
        primaryKey: { get: () => cursor.primaryKey },
        value: {
          get: () => {
            const row = cursor.value;
            toIds([row]);
            return row;
          },
        },
      });

    const numberedTable = (table: DBCoreTable): DBCoreTable => ({
      ...table,
      mutate: (req) => {
        if (req.type !== 'add' && req.type !== 'put') return table.mutate(req);
        let ids: Set<string>;
        try {
          ids = unnumbered(req.trans, req.values);
        } catch (refused) {
          return Promise.reject(refused);
        }
        const store = () => table.mutate({ ...req, values: req.values.map((row) => toNumbers(req.trans, row)) });
        return ids.size === 0 ? store() : give(req.trans, ids).then(store);
      },
      get: (req) => table.get(req).then((row) => named(req.trans, [row], row)),
      getMany: (req) => table.getMany(req).then((rows) => named(req.trans, rows, rows)),
      query: (req) => (req.values ? table.query(req).then((response) => named(req.trans, response.result, response)) : table.query(req)),
      openCursor: (req) =>
        req.values
          ? readNew(req.trans)
              .then(() => table.openCursor(req))
              .then((cursor) => cursor && namedCursor(cursor))
          : table.openCursor(req),
    });

    let horses: DBCoreTable | undefined;
    return {
      ...down,
      transaction: (stores, mode, options) =>
        down.transaction(
          stores.includes(NUMBERED_TABLE) && !stores.includes(REFERENCE_NUMBERS) ? [...stores, REFERENCE_NUMBERS] : stores,
          mode,
          options,
        ),
      table: (name) => {
        if (name !== NUMBERED_TABLE) return down.table(name);
        horses ??= numberedTable(down.table(name));
        return horses;
      },
    };
  },
};

/**
 * Version 14's upgrade: the horses a device stored before, their references as ids, stored
 * again through the middleware, as numbers, a page at a time (each page a request: a
 * phone's main thread is not held by all of them at once).
 */
export function numberStoredHorses(tx: Transaction): Promise<void> {
  const horses = tx.table<Row & { id: string }, string>(NUMBERED_TABLE);
  return forEachPageByKey(horses, async (rows) => {
    await horses.bulkPut(rows);
  });
}
