import type { LedgerEntryInput } from '../../../../shared/ledger.ts';
import type { RanchDb } from '../db.ts';
import { checkIntent, type WriteIntent } from '../outbox/intent.ts';
import { ledgerRow } from './entry-row.ts';
import type { RecordedEntry } from './ledger-book.ts';
import { isLedgerRepository } from './ledger-rows.ts';

/** An entry this device recorded and the server has not answered: its intent's seq, and the entry as pushed. */
export type WaitingEntry = { seq: number; entry: LedgerEntryInput };

/**
 * Stores what a pass of the outbox recorded, in one transaction: each intent keeps its entry
 * (from then on it is not applied again, and it waits to be pushed), and each entry's row is
 * written at once, `ledgerSeq` null, so the lists show it offline.
 */
export async function storeWaitingEntries(db: RanchDb, entries: readonly (RecordedEntry & { seq: number })[]): Promise<void> {
  if (entries.length === 0) return;
  await db.transaction('rw', [db.outbox, db.sales, db.payments, db.corrections], async () => {
    for (const { seq, table, id, record } of entries) {
      // Cleared meanwhile (sign-out): nothing to show.
      if ((await db.outbox.update(seq, { entry: record })) === 0) continue;
      const reading = ledgerRow(id, table, record, null, []);
      if (reading.valid) await db.table(table).put(reading.row);
      else console.error(`Ledger: the entry ${id} is not a valid record (${reading.problem}); it is pushed, and the server says so`);
    }
  });
}

const waiting = (intent: WriteIntent): boolean => intent.entry !== undefined && intent.refused === undefined;

/** The entries waiting to be pushed, in the order recorded, at most `max`. */
export async function readWaitingEntries(db: RanchDb, max: number): Promise<WaitingEntry[]> {
  const found: WaitingEntry[] = [];
  await db.outbox
    .orderBy('seq')
    .until(() => found.length >= max)
    .each((row) => {
      let intent: WriteIntent;
      try {
        intent = checkIntent(row);
      } catch {
        return; // The drain logs and drops it.
      }
      const id = intent.creates[0];
      if (!waiting(intent) || !isLedgerRepository(intent.repository) || id === undefined || intent.seq === undefined) return;
      found.push({ seq: intent.seq, entry: { id, collection: intent.repository, record: intent.entry! } });
    });
  return found;
}

/** The intents the server refused and the person has not dismissed ([S19]), in the order recorded. */
export async function readRefusedEntries(db: RanchDb): Promise<WriteIntent[]> {
  const rows = await db.outbox.toArray();
  return rows.filter((row) => typeof row.refused === 'string' && row.entry !== undefined);
}
