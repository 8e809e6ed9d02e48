import Dexie, { type EntityTable } from 'dexie';
import {
  COLLECTIONS,
  type Buyer,
  type CareEntry,
  type Conflict,
  type HistoryChange,
  type Horse,
  type LookupItem,
  type Owner,
  type Payment,
  type StoredSale,
} from '../../../shared/index.ts';
import type { OutboxPhoto } from './photos/photo-outbox.ts';
import type { SalePaymentsRow } from './sale-payments.ts';

/** IndexedDB database of the read model projected from the document. */
export const READ_DB_NAME = 'ranch-data';

/** Suppliers are stored (and typed) as shared `Owner`: the projection writes only valid records, so `createdAt` is always set. */
export type { Buyer, Owner, Payment, StoredSale };

export type MetaRow = { key: string; value: unknown };

/** One fetched history: `key` is the path under /api/history/ it came from (`horses/<id>`, `recent`). */
export type HistoryCacheRow = { key: string; changes: HistoryChange[]; fetchedAt: string };

/** [T6] An open conflict as the server last listed it; `answeredAt`: someone answered it on this device (hidden until the server's list drops it). */
export type ConflictRow = Conflict & { answeredAt: string | null };

export type RanchDb = Dexie & {
  horses: EntityTable<Horse, 'id'>;
  owners: EntityTable<Owner, 'id'>;
  buyers: EntityTable<Buyer, 'id'>;
  /** Sales as stored in the document: status is derived (shared sale status), never stored. */
  sales: EntityTable<StoredSale, 'id'>;
  /** Each sale's payments as one row (sale-payments.ts); read with flattenPayments. */
  salePayments: EntityTable<SalePaymentsRow, 'saleId'>;
  breeds: EntityTable<LookupItem, 'id'>;
  colors: EntityTable<LookupItem, 'id'>;
  genders: EntityTable<LookupItem, 'id'>;
  statuses: EntityTable<LookupItem, 'id'>;
  /** [K1] Care entries, one row each; read by horse, and all at once for what is due. */
  careEntries: EntityTable<CareEntry, 'id'>;
  /** [T3] The change history last fetched per record (and the ranch's recent changes), for reading offline; device state, not projected. */
  historyCache: EntityTable<HistoryCacheRow, 'key'>;
  /** [T6] The open conflicts as last fetched (conflict-cache.ts), for reading offline; device state, not projected. */
  conflicts: EntityTable<ConflictRow, 'id'>;
  /** Small device state (sync acknowledgements); never written by the projection. */
  meta: EntityTable<MetaRow, 'key'>;
  /** Photos taken on this device that have not reached the server (photo-outbox.ts); not projected. */
  photoOutbox: EntityTable<OutboxPhoto, 'id'>;
};

/** Document collections that have a table here (all of them); the projection writes exactly these. */
export const PROJECTED_COLLECTIONS = COLLECTIONS;
export type ProjectedCollection = (typeof PROJECTED_COLLECTIONS)[number];

/** The table a collection is projected into: its own name, but payments go by sale. */
export type ReadTable = Exclude<ProjectedCollection, 'payments'> | 'salePayments';
export const tableOf = (collection: ProjectedCollection): ReadTable => (collection === 'payments' ? 'salePayments' : collection);

/**
 * The read side of the data flow: screens query these tables with useLiveQuery. They are
 * a projection of the Y.Doc (see projection.ts) and may be rebuilt from it at any time,
 * which is why a schema change needs no upgrade function: the projection reconciles every
 * table from the document at start.
 */
export function openRanchDb(name: string = READ_DB_NAME): RanchDb {
  // No optimistic live-query cache: the projection writes tens of thousands of rows in one
  // transaction on a first sync, and applying each chunk to every cached query result cost
  // more than querying again after the commit (docs/web.md, Data).
  const db = new Dexie(name, { cache: 'disabled' }) as RanchDb;
  db.version(1).stores({
    horses: 'id, name, breedId, colorId, genderId, statusId, ownerId',
    owners: 'id, lastName, firstName',
    breeds: 'id, name',
    colors: 'id, name',
    genders: 'id, name',
    statuses: 'id, name',
    meta: 'key',
  });
  db.version(2).stores({
    owners: 'id, lastName, firstName, createdAt',
    buyers: 'id, lastName, firstName',
    sales: 'id, horseId, buyerId, createdAt',
    payments: 'id, saleId, date, createdAt',
  });
  // The photo outbox lives here but is device state like `meta`: the projection never
  // touches it, and it is not rebuilt from the document.
  db.version(3).stores({
    photoOutbox: 'id, createdAt',
  });
  // Version 4 had a name search index table; the search now runs in memory over the rows
  // the list has read (features/horses/name-search.ts), so version 5 drops it.
  db.version(4).stores({
    horseSearch: 'id, *keys',
  });
  db.version(5).stores({
    horseSearch: null,
  });
  // Version 6 keeps a sale's payments in one row (sale-payments.ts): a first sync writes a
  // tenth of the rows. The projection fills the new table from the document at start.
  db.version(6).stores({
    payments: null,
    salePayments: 'saleId',
  });
  // Version 7 adds care entries ([K1]); the projection fills the table from the document at start.
  db.version(7).stores({
    careEntries: 'id, horseId, [horseId+doneOn]',
  });
  // Version 8 keeps the change history last fetched ([T3]); device state like `meta`, never rebuilt.
  db.version(8).stores({
    historyCache: 'key, fetchedAt',
  });
  // Version 9 keeps the open conflicts last fetched ([T6]); device state like `meta`, never rebuilt.
  db.version(9).stores({
    conflicts: 'id, [collection+entityId]',
  });
  return db;
}
