import type * as Y from 'yjs';
import type { Sql } from '../db/client.ts';
import { collectionMap, MOVED_TO_LEDGER, readRecord, type EntityChanges, type LedgerCollection } from '../../../shared/index.ts';
import type { CheckedEntry } from './entries.ts';
import { documentFacts } from './push.ts';
import { appendEntries, type Appended, type Submission } from './store.ts';

/**
 * The move of recorded facts out of the document (docs/sync-rules.md "Ledger", "Moving the
 * document's records"), which the document host runs at load and on an old-layout write
 * (old-layout.ts). Care entries stay in the document in ledger version 1 (they may be corrected
 * or deleted, [K1] [K3] [K6]), so only sales, payments and corrections (MOVED_TO_LEDGER) move.
 */

/** Entries moved in one transaction at most (each a step the next run does not repeat). */
const MOVE_CHUNK = 5000;

/** A record of the document that is no valid entry (it fails its schema): left where it is, and said. */
export type Unmoved = { collection: LedgerCollection; id: string; problem: string };

/**
 * The valid sales, payments and corrections of the document (of `only`'s ids when given) as
 * entries, in an order where each comes after what it names: sales, payments, corrections,
 * each by `createdAt` (then id, so every run orders them alike).
 */
export function entriesOfDocument(doc: Y.Doc, only?: EntityChanges): { entries: CheckedEntry[]; unmoved: Unmoved[] } {
  const entries: CheckedEntry[] = [];
  const unmoved: Unmoved[] = [];
  for (const collection of MOVED_TO_LEDGER) {
    const map = collectionMap(doc, collection);
    const ids = only ? [...(only.get(collection) ?? [])] : [...map.keys()];
    const found: CheckedEntry[] = [];
    for (const id of ids) {
      if (!map.has(id)) continue;
      const read = readRecord(collection, id, map.get(id));
      if (!read.valid) {
        unmoved.push({ collection, id, problem: read.problem });
        continue;
      }
      const { id: _id, ...record } = read.record;
      found.push({ id, collection, record });
    }
    const createdAt = (entry: CheckedEntry) => String(entry.record.createdAt);
    found.sort((a, b) => createdAt(a).localeCompare(createdAt(b)) || a.id.localeCompare(b.id));
    entries.push(...found);
  }
  return { entries, unmoved };
}

/**
 * Who recorded each entry: whoever sent the change that created the record ([T1] history;
 * null when the history began later, or it was the server's own).
 */
async function authorsOf(sql: Sql, entries: CheckedEntry[]): Promise<Map<string, string | null>> {
  const authors = new Map<string, string | null>();
  const asked = entries.map((entry) => entry.id);
  for (let start = 0; start < asked.length; start += MOVE_CHUNK) {
    const rows = await sql<{ id: string; userId: string | null }[]>`
      select distinct on (entity_id) entity_id::text as id, user_id::text as "userId" from change_history
      where entity_id = any(${asked.slice(start, start + MOVE_CHUNK)}::uuid[])
        and collection in ('sales', 'payments', 'corrections') and kind = 'create'
      order by entity_id, id`;
    for (const row of rows) authors.set(row.id, row.userId);
  }
  return authors;
}

export type Moved = { recorded: number; duplicates: number; refused: { id: string; message: string }[]; unmoved: Unmoved[] };

/**
 * Moves a stored document's sales, payments and corrections into the ledger:
 * the same ids and records, who recorded each, and when (its `createdAt` as the time received),
 * judged by the ledger's rules (flags included) but with no document effect — the document
 * already holds the horse statuses they set. Idempotent: a second run finds every entry a
 * duplicate, so a run stopped halfway is finished by the next. The records stay in the document
 * until the lean layout removes them (issue 68 item 2).
 */
export async function moveDocumentToLedger(sql: Sql, doc: Y.Doc): Promise<Moved> {
  const { entries, unmoved } = entriesOfDocument(doc);
  const authors = await authorsOf(sql, entries);
  const moved: Moved = { recorded: 0, duplicates: 0, refused: [], unmoved };
  for (let start = 0; start < entries.length; start += MOVE_CHUNK) {
    const submissions: Submission[] = entries.slice(start, start + MOVE_CHUNK).map((entry) => ({
      entry,
      recordedBy: authors.get(entry.id) ?? null,
      receivedAt: String(entry.record.createdAt),
    }));
    const appended = await appendEntries(sql, submissions, (tx, named) => documentFacts(tx, doc, named), { effects: false });
    count(moved, appended);
  }
  return moved;
}

function count(moved: Moved, appended: Appended): void {
  for (const result of appended.results) {
    if (result.outcome === 'refused') moved.refused.push({ id: result.id, message: result.message });
    else if (result.outcome === 'recorded') moved.recorded++;
    else moved.duplicates++;
  }
}
