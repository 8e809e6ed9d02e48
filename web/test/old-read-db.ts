import Dexie from 'dexie';

/**
 * The read database as versions 1–9 declared it before one declaration replaced them
 * (data/db.ts READ_DB_SCHEMA), copied as they were, and the changes of versions 10 to 16
 * made by that one declaration: opened `upTo` a version, it makes the database a device that
 * last ran that version of the app has.
 */
export function openOldReadDb(name: string, upTo: number): Dexie {
  const db = new Dexie(name, { cache: 'disabled' });
  const versions: Record<string, string | null>[] = [
    {
      horses: 'id, name, breedId, colorId, genderId, statusId, ownerId',
      owners: 'id, lastName, firstName',
      breeds: 'id, name',
      colors: 'id, name',
      genders: 'id, name',
      statuses: 'id, name',
      meta: 'key',
    },
    {
      owners: 'id, lastName, firstName, createdAt',
      buyers: 'id, lastName, firstName',
      sales: 'id, horseId, buyerId, createdAt',
      payments: 'id, saleId, date, createdAt',
    },
    { photoOutbox: 'id, createdAt' },
    { horseSearch: 'id, *keys' },
    { horseSearch: null },
    { payments: null, salePayments: 'saleId' },
    { careEntries: 'id, horseId, [horseId+doneOn]' },
    { historyCache: 'key, fetchedAt' },
    { conflicts: 'id, [collection+entityId]' },
    { stagedUpdates: '++seq' },
    {
      horses: 'id, name, ownerId',
      owners: 'id, lastName',
      buyers: 'id, lastName',
      sales: 'id, horseId',
      careEntries: 'id, horseId',
    },
    { stagedCalls: '++seq' },
    { careEntries: null, horseCare: 'horseId' },
    { referenceNumbers: '++n, &id' },
    { corrections: 'id, saleId' },
    { outbox: '++seq', stagedCalls: null },
  ];
  versions.slice(0, upTo).forEach((stores, i) => db.version(i + 1).stores(stores));
  return db;
}
