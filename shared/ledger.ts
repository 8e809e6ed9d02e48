import type { Collection } from './collections.ts';

/**
 * The ledger of recorded facts (docs/sync-rules.md "Ledger"): sales, payments, care entries
 * and corrections as immutable entries with the recording device's ids, ordered by the
 * server. This is the contract's version; raise it when an entry or an answer changes shape.
 */
export const LEDGER_VERSION = 1;

/** The collections whose records are ledger entries; each entry is one record of one of them. */
export const LEDGER_COLLECTIONS = ['sales', 'payments', 'careEntries', 'corrections'] as const satisfies readonly Collection[];
export type LedgerCollection = (typeof LEDGER_COLLECTIONS)[number];

export function isLedgerCollection(value: unknown): value is LedgerCollection {
  return typeof value === 'string' && (LEDGER_COLLECTIONS as readonly string[]).includes(value);
}

/** Entries one push may carry at most (`POST /api/ledger`). */
export const LEDGER_PUSH_MAX = 500;
/** Entries one page of `GET /api/ledger` holds at most (and by default). */
export const LEDGER_PAGE_MAX = 1000;

/** One entry as a device pushes it: its id, its collection and its record's fields (no `id`). */
export type LedgerEntryInput = { id: string; collection: LedgerCollection; record: Record<string, unknown> };

/**
 * [P13] The rules an entry broke after the fact, on arrival: it is kept, these are recorded
 * with it, and the device that pushed it is told.
 */
export const LEDGER_FLAGS = {
  /** A sale of a horse another standing sale names ([S4]). */
  horseAlreadySold: 'The horse was already sold: both sales are kept',
  /** A sale or care entry naming a horse the ranch deleted meanwhile. */
  horseDeleted: 'The horse was deleted meanwhile',
  /** A sale naming a buyer the ranch deleted meanwhile. */
  buyerDeleted: 'The buyer was deleted meanwhile',
  /** 'Paid in Full' terms with a smaller down payment ([S15]): the sale shows Open. */
  paidInFullShort: "'Paid in Full' with a down payment below the price: the rest is due on its start date",
  /** A payment on a sale cancelled meanwhile ([P12]): it adds to the credit held for the buyer. */
  saleCancelled: 'The sale was cancelled meanwhile: the payment is held for the buyer as credit',
  /** A payment beyond the sale's balance ([P8]): the excess is the sale's credit. */
  overpaid: 'More than the balance: the excess is held for the buyer as credit',
  /** A second void of a payment ([P10]): the payment is void once. */
  alreadyVoid: 'The payment was already void',
  /** A second cancellation of a sale ([S17]): the sale is cancelled once. */
  alreadyCancelled: 'The sale was already cancelled',
  /** A refund beyond the credit held ([P11]): the sale shows the balance owed again. */
  beyondCredit: 'More than the credit held for the buyer: the sale owes the difference again',
} as const;
export type LedgerFlag = keyof typeof LEDGER_FLAGS;

/** An entry as the server holds it and `GET /api/ledger` gives it. */
export type LedgerEntry = {
  seq: string;
  id: string;
  collection: LedgerCollection;
  record: Record<string, unknown>;
  recordedBy: string | null;
  receivedAt: string;
  flags: LedgerFlag[];
};

/**
 * The answer to each pushed entry, in the order pushed:
 * - `recorded`: stored now at `seq`, with the `flags` it broke after the fact;
 * - `duplicate`: the same id with the same record was stored before (at `seq`): nothing changed;
 * - `refused`: not stored; `status` says why as an HTTP status would (400 malformed, 404 it
 *   names what does not exist, 409 its id holds another record) and `message` in words.
 */
export type LedgerResult =
  | { id: string; outcome: 'recorded' | 'duplicate'; seq: string; flags: LedgerFlag[]; notes: string[] }
  | { id: string; outcome: 'refused'; status: 400 | 404 | 409; message: string };

/** `POST /api/ledger`'s answer: one result per entry, and the ledger's head after the push. */
export type LedgerPushAnswer = { version: typeof LEDGER_VERSION; head: string; results: LedgerResult[] };

/** `GET /api/ledger?after=`'s answer: entries after the cursor in seq order; `next` is the cursor for the next page. */
export type LedgerPage = { version: typeof LEDGER_VERSION; entries: LedgerEntry[]; next: string; head: string; more: boolean };
