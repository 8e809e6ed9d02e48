import type { Collection } from './collections.ts';

// Apart from references.ts (which re-exports them) because that one needs Yjs, and the
// page's screens need only these tables (docs/web.md "A small entry").

/**
 * What refers to what, the one definition every side reads: for each collection, its fields
 * that name an entity of another collection (field → the collection that entity must be in).
 * The server's reference index and compensations, its REST deletes, the device's
 * repositories and the sync notices all derive from this.
 */
export const REFERENCES: Partial<Record<Collection, Record<string, Collection>>> = {
  horses: { breedId: 'breeds', colorId: 'colors', genderId: 'genders', statusId: 'statuses', ownerId: 'owners' },
  sales: { horseId: 'horses', buyerId: 'buyers' },
  payments: { saleId: 'sales' },
  careEntries: { horseId: 'horses' },
  corrections: { saleId: 'sales', paymentId: 'payments' },
};

/**
 * Referrers that go with what they name instead of keeping it ([K6]): deleting a horse deletes
 * its care entries in the same change (a ranch keeps no care history of a horse it no longer
 * has). Everything else that refers to a record refuses its deletion (409, InUseError).
 */
export const DELETED_WITH: Partial<Record<Collection, readonly Collection[]>> = {
  horses: ['careEntries'],
};
