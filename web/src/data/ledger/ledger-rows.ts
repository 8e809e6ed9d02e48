import { LEDGER_FLAGS, type LedgerFlag } from '../../../../shared/ledger.ts';
import type { RanchDb } from '../db.ts';

/**
 * What a read row of a ledger record carries beside the record's fields (docs/web.md
 * "Data"): `ledgerSeq`, the server's order (null while the entry waits in this device's
 * outbox), and `flags`, the rules it broke after the fact ([P13]). A row without
 * `ledgerSeq` was projected from the document (an old-layout record).
 */
export type LedgerFields = { ledgerSeq: number | null; flags: LedgerFlag[] };

/** The read tables ledger records are written to, one row per record, keyed by the entry's id. */
export const LEDGER_READ_TABLES = ['sales', 'payments', 'corrections'] as const;
export type LedgerReadTable = (typeof LEDGER_READ_TABLES)[number];

/** The repositories whose writes are ledger entries, each of its table: their records are not in the document. */
export type LedgerRepository = LedgerReadTable;

export function isLedgerRepository(repository: string): repository is LedgerRepository {
  return (LEDGER_READ_TABLES as readonly string[]).includes(repository);
}

/** The ledger collections the device reads (care entries stay in the document: docs/sync-rules.md §7). */
export const READ_LEDGER_COLLECTIONS = LEDGER_READ_TABLES;

/** Whether a stored row came from the ledger (pulled, or recorded here and waiting). */
export function isLedgerRow(row: unknown): boolean {
  return typeof row === 'object' && row !== null && Object.hasOwn(row, 'ledgerSeq');
}

/** Flags as the device shows them: only the ones it knows, once each. */
export function knownFlags(value: unknown): LedgerFlag[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter((flag): flag is LedgerFlag => typeof flag === 'string' && Object.hasOwn(LEDGER_FLAGS, flag)))];
}

/**
 * The device's cursor into the ledger (docs/sync-rules.md §7 "Pull"): the last `seq` whose
 * entries are in the read database, a decimal string. It lives in `meta`, the device state
 * of the read database, so it goes when the read database goes (Clear Local Data, sign-out,
 * a schema upgrade that replaces the ledger's tables): the next pull starts from 0 again.
 */
export const LEDGER_CURSOR_KEY = 'ledger.cursor';

/**
 * How many entries this device recorded wait to be pushed (ledger/push.ts): the header
 * counts them with the changes waiting, and sign-out and Clear Local Data warn of them.
 */
export function countWaitingEntries(db: Pick<RanchDb, 'outbox'>): Promise<number> {
  return db.outbox.filter((row) => row.entry !== undefined && row.refused === undefined).count();
}
