import Dexie, { type EntityTable, type Transaction } from 'dexie';
import {
  COLLECTIONS,
  type Buyer,
  type Conflict,
  type Correction,
  type HistoryChange,
  type Horse,
  type LookupItem,
  type Owner,
  type Payment,
  type StoredSale,
} from '../../../shared/index.ts';
import type { HorseCareRow } from './horse-care-row.ts';
import { writesUntilSealed } from './sealed-writes.ts';
import { numberedReferences, numberStoredHorses, REFERENCE_NUMBERS, REFERENCE_NUMBERS_SCHEMA } from './numbered-references.ts';
import type { OutboxPhoto } from './photos/photo-outbox.ts';
import { type IntentRepository, makeIntent, type WriteIntent } from './outbox/intent.ts';
import type { SalePaymentsRow } from './sale-payments-row.ts';
import { keptLedgerRows } from './ledger/kept-ledger-rows.ts';
import { LEDGER_CURSOR_KEY, type LedgerFields } from './ledger/ledger-rows.ts';

// Dexie turns its debug mode on (long async stacks; a console task around every table call)
// for any page served from localhost, which is where the office PC running `npm start` opens
// the app. The built app runs without it wherever it is served; development keeps it
// (dexie.org/docs/Dexie/Dexie.debug). Set here, in the module through which the page and
// the data workers open the read database; Dexie reads it at each call. Node tools that load
// the data layer without Vite (the fuzzer and the fault suite under tsx) have no
// `import.meta.env`: off there.
Dexie.debug = import.meta.env?.DEV === true;

/** IndexedDB database of the read model projected from the document. */
export const READ_DB_NAME = 'ranch-data';

/** Suppliers are stored (and typed) as shared `Owner`: the projection writes only valid records, so `createdAt` is always set. */
export type { Buyer, Owner, Payment, StoredSale };

export type MetaRow = { key: string; value: unknown };

/** One fetched history: `key` is the path under /api/history/ it came from (`horses/<id>`, `recent`). */
export type HistoryCacheRow = { key: string; changes: HistoryChange[]; fetchedAt: string };

/** [T6] An open conflict as the server last listed it; `answeredAt`: someone answered it on this device (hidden until the server's list drops it). */
export type ConflictRow = Conflict & { answeredAt: string | null };

/**
 * One create an earlier version of the app staged while its data host was loading: a Yjs
 * update. The outbox's drain applies what is left of them (outbox/legacy-creates.ts).
 */
export type StagedUpdateRow = { seq: number; update: Uint8Array; createdAt: string };

/** A row of a sale, payment or correction: projected from the document (an old-layout record), or from the ledger (with its seq and flags). */
export type MaybeLedger<T> = T & Partial<LedgerFields>;

export type RanchDb = Dexie & {
  horses: EntityTable<Horse, 'id'>;
  owners: EntityTable<Owner, 'id'>;
  buyers: EntityTable<Buyer, 'id'>;
  /**
   * Sales as the record schema reads them: status is derived (shared sale status), never
   * stored. From the ledger (ledger/pull.ts, with `ledgerSeq` and `flags`), or projected from
   * a document of the old layout; the projection never overwrites a ledger row (kept-ledger-rows.ts).
   */
  sales: EntityTable<MaybeLedger<StoredSale>, 'id'>;
  /** Payments from the ledger, a row each; read with the document's (salePayments) through ledger/read-payments.ts. */
  payments: EntityTable<Payment & LedgerFields, 'id'>;
  /** Each sale's payments of a document of the old layout as one row (sale-payments.ts); read through ledger/read-payments.ts. */
  salePayments: EntityTable<SalePaymentsRow, 'saleId'>;
  breeds: EntityTable<LookupItem, 'id'>;
  colors: EntityTable<LookupItem, 'id'>;
  genders: EntityTable<LookupItem, 'id'>;
  statuses: EntityTable<LookupItem, 'id'>;
  /** [P10]–[P12] [S17] Voids, cancellations and refunds, create-only; read by sale. From the ledger or the document, as sales are. */
  corrections: EntityTable<MaybeLedger<Correction>, 'id'>;
  /** [K1] Each horse's care entries as one row (horse-care.ts); read by horse, and all at once (flattenCare) for what is due. */
  horseCare: EntityTable<HorseCareRow, 'horseId'>;
  /** [T3] The change history last fetched per record (and the ranch's recent changes), for reading offline; device state, not projected. */
  historyCache: EntityTable<HistoryCacheRow, 'key'>;
  /** [T6] The open conflicts as last fetched (conflict-cache.ts), for reading offline; device state, not projected. */
  conflicts: EntityTable<ConflictRow, 'id'>;
  /** Small device state (sync acknowledgements); never written by the projection. */
  meta: EntityTable<MetaRow, 'key'>;
  /** Photos taken on this device that have not reached the server (photo-outbox.ts); not projected. */
  photoOutbox: EntityTable<OutboxPhoto, 'id'>;
  /** The device's writes not yet stored in the document, in the order asked (outbox/); not projected. */
  outbox: EntityTable<WriteIntent, 'seq'>;
  /** Creates an earlier version of the app staged; emptied by the outbox's drain. */
  stagedUpdates: EntityTable<StagedUpdateRow, 'seq'>;
};

/** Document collections that have a table here (all of them); the projection writes exactly these. */
export const PROJECTED_COLLECTIONS = COLLECTIONS;
export type ProjectedCollection = (typeof PROJECTED_COLLECTIONS)[number];

/** The table a collection is projected into: its own name, but payments go by sale and care entries by horse. */
export type ReadTable = Exclude<ProjectedCollection, 'payments' | 'careEntries'> | 'salePayments' | 'horseCare';
export const tableOf = (collection: ProjectedCollection): ReadTable =>
  collection === 'payments' ? 'salePayments' : collection === 'careEntries' ? 'horseCare' : collection;

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
  db.use(numberedReferences);
  db.use(keptLedgerRows);
  db.use(writesUntilSealed(db));
  db.version(15)
    .stores(READ_DB_SCHEMA)
    .upgrade((tx) => numberStoredHorses(tx));
  // Only the outbox added and the staged edits moved into it: version 15's upgrade does not run again.
  db.version(16)
    .stores(OUTBOX_SCHEMA)
    .upgrade((tx) => moveStagedEdits(tx));
  db.version(READ_DB_VERSION)
    .stores(LEDGER_SCHEMA)
    .upgrade((tx) => startLedgerAfresh(tx));
  return db;
}

/**
 * The read database's version. Never lower it: a device whose database has a higher
 * version than the app declares cannot open it. Raise it when a table is dropped or an
 * index changes, and change READ_DB_SCHEMA to the new whole schema.
 */
export const READ_DB_VERSION = 17;

/**
 * The whole schema, declared once, at READ_DB_VERSION. Dexie reads the schema a database
 * actually has, so an older version needs declaring only for an upgrade function; parsing
 * every old declaration is a cost of each start. db-versions.test.ts checks that a database
 * made by any older version opens with this one, keeps its rows, gains what is missing and
 * loses the tables not declared here. A table the projection fills (a new one, or one
 * replaced) is filled from the document at the first start, as any missing row is. The one
 * upgrade function (version 14) stores a device's horses again with numbered references.
 */
export const READ_DB_SCHEMA: Record<string, string> = {
  // Only the indexes something reads by: each costs a write per row of a first sync (the
  // horse filters narrow the whole list in memory, use-horse-rows.ts).
  horses: 'id, name, ownerId',
  owners: 'id, lastName',
  buyers: 'id, lastName',
  sales: 'id, horseId',
  // A sale's payments in one row (sale-payments.ts): a first sync writes a tenth of the rows.
  salePayments: 'saleId',
  breeds: 'id, name',
  colors: 'id, name',
  genders: 'id, name',
  statuses: 'id, name',
  // A horse's care entries in one row (horse-care.ts): a first sync writes a fifth of the rows.
  horseCare: 'horseId',
  corrections: 'id, saleId',
  // Device state, never written by the projection nor rebuilt from the document: sync
  // acknowledgements, photos not yet on the server, the change history and the open
  // conflicts last fetched, and (legacy) creates an earlier app staged, which the outbox's
  // drain applies.
  meta: 'key',
  photoOutbox: 'id, createdAt',
  historyCache: 'key, fetchedAt',
  conflicts: 'id, [collection+entityId]',
  stagedUpdates: '++seq',
  stagedCalls: '++seq',
  // The numbers the horses' references to lookup items are stored as (numbered-references.ts).
  [REFERENCE_NUMBERS]: REFERENCE_NUMBERS_SCHEMA,
};

/**
 * Version 16: the device's outbox of writes (outbox/), emptied by the data host's drain;
 * deleted with the database by Clear Local Data and sign-out, whose warnings count it:
 * countUnsent waits for the drain. Version 15's staged edits are gone with it.
 */
const OUTBOX_SCHEMA: Record<string, string | null> = { outbox: '++seq', stagedCalls: null };

/**
 * Version 17: ledger payments (ledger/pull.ts) in a table of their own, a row each, read by
 * sale. Sales and corrections from the ledger share their tables with the document's.
 */
const LEDGER_SCHEMA: Record<string, string | null> = { payments: 'id, saleId' };

/**
 * A database of version 4 or before still has a `payments` table of the document's rows: it
 * is emptied, and the ledger pulled again from its start, so every ledger row is the ledger's.
 */
async function startLedgerAfresh(tx: Transaction): Promise<void> {
  await tx.table('payments').clear();
  await tx.table('meta').delete(LEDGER_CURSOR_KEY);
}

/** Edits an earlier app staged (`stagedCalls`, rows of {repository, method, args}) become intents, in order; the drain checks them as any. */
async function moveStagedEdits(tx: Transaction): Promise<void> {
  const rows = await tx.table<{ repository: IntentRepository; method: string; args: unknown[] }>('stagedCalls').toArray();
  await tx.table('outbox').bulkAdd(rows.map((row) => makeIntent(row.repository, row.method, row.args, true)));
}
