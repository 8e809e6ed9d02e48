import * as Y from 'yjs';
import { collectionMap, COLLECTIONS, type Collection, type CompensationNotice } from '../../../../shared/index.ts';
import type { RanchDb } from '../db.ts';
import { readLedgerBook, type LedgerBook } from '../ledger/ledger-book.ts';
import type { LedgerRepository } from '../ledger/ledger-rows.ts';
import { ledgerTargets, refuseIfLedgerNames } from '../ledger/ledger-writes.ts';
import { storeWaitingEntries } from '../ledger/waiting-entries.ts';
import { runWrite, type WriteTargets } from '../ranch-writes.ts';
import { ValidationError } from '../repositories/validate.ts';
import type { SaveTracker } from '../save-tracker.ts';
import { appendStoredUpdates } from '../stored-update.ts';
import { applyLegacyCreates } from './legacy-creates.ts';
import { alreadyApplied, answerOf, callOf, checkIntent, type WriteIntent } from './intent.ts';

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The repositories whose writes go into the document. */
export type DocumentTargets = Omit<WriteTargets, LedgerRepository>;

export type OutboxDrain = {
  /** Applies every intent appended so far, in order; passes run one after the other. Never rejects. */
  run(): Promise<void>;
  /**
   * Runs a pass and answers for intent `id` as its write would: the repository's answer, or
   * its refusal as a rejection. An intent applied by an earlier pass or start answers as
   * applied (a create its ids).
   */
  answer(id: string): Promise<unknown>;
  /** No further pass starts; resolves once the one under way (if any) has ended. */
  stop(): Promise<void>;
};

/** How many answers are kept for pages that have not asked yet (an answer is taken once). */
const KEPT_ANSWERS = 1000;

/**
 * The data host's side of the outbox (docs/architecture.md "The device's write path"):
 * applies the intents pages appended to the device's `outbox` table to the loaded document,
 * in the order appended, each with the repositories' own code as a local write. Call run()
 * only once the document has loaded: the changes are appended to y-indexeddb's store, which
 * the load holds.
 *
 * A sale, payment or correction is recorded as a ledger entry instead (ledger/ledger-writes.ts):
 * its intent stays, keeping its entry, until the push has an answer (ledger/push.ts).
 *
 * A pass loses nothing and doubles nothing wherever it stops:
 * 1. what the ledger's writes need is read from the read database (ledger/ledger-book.ts);
 * 2. the intents are read and applied, in one synchronous run, and the changes they made
 *    captured (an intent that already took effect, by an earlier pass cut short, is skipped:
 *    intent.ts alreadyApplied; an edit applied again writes the same fields);
 * 3. the ledger's entries are stored with their intents and rows, in one transaction
 *    (ledger/waiting-entries.ts): from then on they are not applied again;
 * 4. the changes are appended to the document's store (stored-update.ts), and the commit awaited;
 * 5. the other intents are removed, in one transaction.
 * Stopped before 4 has committed, the next load applies those intents again on a document
 * without their changes; stopped after it, the next load has the changes and the intents
 * are skipped or written again field by field. A sale's Sold status lost so (stopped
 * between 3 and 4) is set by the server when the sale arrives ([S18]).
 */
export function createOutboxDrain(target: {
  db: RanchDb;
  doc: Y.Doc;
  docDbName: string;
  tracker: Pick<SaveTracker, 'adopt'>;
  /** The host's repositories of the document, on `doc` (the ledger's are made for each pass). */
  targets: DocumentTargets;
  /** A write answered before it was applied (`answered`) that the document refused: the person saw it saved, so say so. */
  onRefused(notice: CompensationNotice): void;
  /** A pass recorded ledger entries: they wait to be pushed (ledger/push.ts). */
  onRecorded(): void;
}): OutboxDrain {
  const { db, doc, docDbName, tracker, targets, onRefused, onRecorded } = target;
  const outcomes = new Map<string, Outcome>();
  let stopped = false;
  let last: Promise<unknown> = Promise.resolve();
  // A pass not yet started sees every intent committed before it starts: later calls share it.
  // Each resolves with the pass's failure, if it failed (never rejects).
  let queued: Promise<{ failed: unknown } | null> | null = null;

  const has = (collection: string, id: string) =>
    (COLLECTIONS as readonly string[]).includes(collection) && collectionMap(doc, collection as Collection).has(id);

  const apply = (intent: WriteIntent, book: LedgerBook, all: WriteTargets): Outcome => {
    if (alreadyApplied(intent, has)) return { ok: true, value: answerOf(intent, undefined) };
    try {
      refuseIfLedgerNames(book, intent.repository, intent.method, intent.args);
      return { ok: true, value: answerOf(intent, runWrite(all, intent.repository, intent.method, callOf(intent))) };
    } catch (error) {
      return { ok: false, error };
    }
  };

  const pass = async () => {
    const rows: unknown[] = await db.outbox.orderBy('seq').toArray();
    const legacy = await db.stagedUpdates.toArray();
    if (rows.length + legacy.length === 0 || stopped) return;
    const intents: WriteIntent[] = [];
    const dropped: number[] = [];
    for (const row of rows) {
      try {
        const intent = checkIntent(row);
        // A ledger entry already recorded waits in the outbox for its push (ledger/push.ts).
        if (intent.entry === undefined) intents.push(intent);
      } catch (error) {
        console.error('Dropped an outbox row that is not a write', error);
        dropped.push((row as { seq: number }).seq);
      }
    }
    if (intents.length + legacy.length + dropped.length === 0) return;
    const book = await readLedgerBook(
      db,
      intents.map((intent) => ({ key: `${intent.repository}.${intent.method}`, args: intent.args })),
    );
    const all: WriteTargets = { ...targets, ...ledgerTargets(doc, book) };
    const updates: Uint8Array[] = [];
    const capture = (update: Uint8Array) => updates.push(update);
    const applied: [WriteIntent, Outcome][] = [];
    doc.on('update', capture);
    try {
      applyLegacyCreates(doc, legacy, tracker);
      for (const intent of intents) applied.push([intent, apply(intent, book, all)]);
    } finally {
      doc.off('update', capture);
    }
    // Answered as applied: the document holds them and sync sends them, even if storing fails
    // below; then the intents stay in the outbox and the next pass applies them again, harmlessly.
    for (const [intent, outcome] of applied) {
      if (!outcome.ok && intent.answered) onRefused(refusal(doc, intent, outcome.error));
      outcomes.set(intent.id, outcome);
    }
    // The ledger's entries first: once stored, their intents are not applied again. A horse's
    // Sold status (below) not stored by then is the server's to set when the sale arrives.
    const seqOf = new Map(applied.map(([intent]) => [intent.creates[0], intent.seq!]));
    await storeWaitingEntries(
      db,
      book.recorded.map((entry) => ({ ...entry, seq: seqOf.get(entry.id)! })),
    );
    if (book.recorded.length > 0) onRecorded();
    if (updates.length > 0) await appendStoredUpdates(docDbName, [Y.mergeUpdates(updates)]);
    const recorded = new Set(book.recorded.map((entry) => entry.id));
    const done = applied.filter(([intent]) => !recorded.has(intent.creates[0]!)).map(([intent]) => intent.seq!);
    await db.transaction('rw', db.outbox, db.stagedUpdates, async () => {
      await db.outbox.bulkDelete([...done, ...dropped]);
      await db.stagedUpdates.bulkDelete(legacy.map((row) => row.seq));
    });
    for (const id of outcomes.keys()) {
      if (outcomes.size <= KEPT_ANSWERS) break;
      outcomes.delete(id);
    }
  };

  const passOnce = (): Promise<{ failed: unknown } | null> => {
    if (queued) return queued;
    const next = last
      .then(async () => {
        queued = null;
        if (!stopped) await pass();
        return null;
      })
      // Whatever failed stays in the outbox for the next pass or load.
      .catch((error: unknown) => {
        console.error('Could not apply the writes in the outbox', error);
        return { failed: error };
      });
    queued = next;
    last = next;
    return next;
  };

  return {
    run: () => passOnce().then(() => undefined),
    async answer(id) {
      const failure = await passOnce();
      // Not applied: the form says the save failed; the intent stays for the next pass or load.
      if (failure && !outcomes.has(id)) throw failure.failed;
      const outcome = outcomes.get(id);
      outcomes.delete(id);
      if (outcome && !outcome.ok) throw outcome.error;
      return outcome?.value;
    },
    async stop() {
      stopped = true;
      await last;
    },
  };
}

/** What the person is told of a refused write the page had shown: the record is as the document has it. */
function refusal(doc: Y.Doc, intent: WriteIntent, error: unknown): CompensationNotice {
  const lookup = intent.repository === 'lookups';
  const collection = lookup ? String(intent.args[0]) : intent.repository;
  const id = intent.creates[0] ?? String(intent.args[lookup ? 1 : 0]);
  const known = (COLLECTIONS as readonly string[]).includes(collection);
  const gone = intent.creates.length === 0 && known && !collectionMap(doc, collection as Collection).has(id);
  const reason = gone
    ? 'it was deleted before this change reached it'
    : error instanceof ValidationError
      ? error.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')
      : error instanceof Error
        ? error.message
        : String(error);
  return { collection: collection as CompensationNotice['collection'], id, action: 'reverted', fields: {}, reason };
}
