import Dexie, { type DBCore, type Middleware } from 'dexie';

/** Read databases of this thread that the device's clear has sealed (sealWrites). */
const sealed = new WeakSet<object>();

/**
 * [A11] [V7] From now on `db` stores nothing: the device is being cleared (sign-out, a
 * session ended, Clear Local Data). The screens still on display read on over the emptied
 * database until the page is left, but nothing still running in this thread may write the
 * ranch back into it: a reconcile under way, a sync acknowledgement, a cache refreshed. Every
 * write from here on fails as a closed database's would. The page's next start opens a new one.
 */
export function sealWrites(db: object): void {
  sealed.add(db);
}

/** Whether `db` was sealed (sealWrites): the data layer around it takes no more changes either. */
export function isSealed(db: object): boolean {
  return sealed.has(db);
}

/** What a write refused after the clear fails with: a closed database's error, as Dexie's own. */
export function clearedError(what: string): Error {
  return new Dexie.DatabaseClosedError(`${what} not written: this device's data was cleared`);
}

/**
 * Dexie middleware of `db` (openRanchDb) that refuses every write once the database is
 * sealed. One check per write request, the projection's chunk of 2,000 rows included.
 */
export function writesUntilSealed(db: object): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'WritesUntilSealed',
    create: (down) => ({
      ...down,
      table(name) {
        const table = down.table(name);
        return {
          ...table,
          mutate: (request) => (sealed.has(db) ? Promise.reject(clearedError(name)) : table.mutate(request)),
        };
      },
    }),
  };
}
