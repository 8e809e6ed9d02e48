import Dexie, { type EntityTable } from 'dexie';
import type { Buyer, Collection, Horse, LookupItem, Payment, StoredSale } from '../../../shared/index.ts';
import type { OutboxPhoto } from './photos/photo-outbox.ts';
import type { HorseSearchRow } from './horse-search.ts';

/** IndexedDB database of the read model projected from the document. */
export const READ_DB_NAME = 'ranch-data';

/**
 * SPEC §3 owner (supplier). `createdAt` is set by the device that creates it; it may be
 * null for a record written by an older client.
 */
export type Owner = {
  id: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  email: string | null;
  createdAt: string | null;
};

export type { Buyer, Payment, StoredSale };

export type MetaRow = { key: string; value: unknown };

export type RanchDb = Dexie & {
  horses: EntityTable<Horse, 'id'>;
  owners: EntityTable<Owner, 'id'>;
  buyers: EntityTable<Buyer, 'id'>;
  /** Sales as stored in the document: status is derived (shared sale status), never stored. */
  sales: EntityTable<StoredSale, 'id'>;
  payments: EntityTable<Payment, 'id'>;
  breeds: EntityTable<LookupItem, 'id'>;
  colors: EntityTable<LookupItem, 'id'>;
  genders: EntityTable<LookupItem, 'id'>;
  statuses: EntityTable<LookupItem, 'id'>;
  /** Small device state (sync acknowledgements); never written by the projection. */
  meta: EntityTable<MetaRow, 'key'>;
  /** Photos taken on this device that have not reached the server (photo-outbox.ts); not projected. */
  photoOutbox: EntityTable<OutboxPhoto, 'id'>;
  /** The horse name search index (horse-search.ts), written by the projection with `horses`. */
  horseSearch: EntityTable<HorseSearchRow, 'id'>;
};

/** Document collections that have a table here; the projection writes exactly these. */
export const PROJECTED_COLLECTIONS = [
  'horses',
  'owners',
  'buyers',
  'sales',
  'payments',
  'breeds',
  'colors',
  'genders',
  'statuses',
] as const satisfies readonly Collection[];
export type ProjectedCollection = (typeof PROJECTED_COLLECTIONS)[number];

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
  // Name search without a scan (horse-search.ts); the projection fills it at start.
  db.version(4).stores({
    horseSearch: 'id, *keys',
  });
  return db;
}
