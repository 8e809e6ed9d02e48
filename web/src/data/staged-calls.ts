import * as Y from 'yjs';
import { collectionMap, type CompensationNotice } from '../../../shared/index.ts';
import { addAtOnce } from './add-at-once.ts';
import type { RanchDb, StagedCallRow } from './db.ts';
import { isStagedEdit, runWrite, type StagedEditRepository, type WriteTargets } from './ranch-writes.ts';
import { ValidationError } from './repositories/validate.ts';
import { noteStagedClients, type SaveTracker } from './save-tracker.ts';
import { appendStoredUpdates } from './stored-update.ts';

/**
 * The read database's `stagedCalls` table: how an edit a page made while the host was
 * loading (staged-writes.ts) reaches the document (docs/web.md "Edits during a start"). An
 * edit cannot be made on a document of the page's own, as a create is: it changes fields of
 * a record the page's document does not have, and a fresh map under the record's key would
 * replace the record rather than merge with it. So the page stores the call, and the host
 * makes it once its document has loaded.
 */

export type StagedCall = { repository: StagedEditRepository; method: string; args: unknown[] };

/** Stores an edit's call. Resolves once committed: from then on the edit is on the device. */
export function stageCall(db: RanchDb, call: StagedCall): Promise<void> {
  return addAtOnce(db, db.stagedCalls, { ...call, createdAt: new Date().toISOString() });
}

/**
 * A staged call as read back, checked: any page of the origin may write the table. Only the
 * edits of EDITS_STAGED_BEFORE_LOAD, on a record id; the repository checks the fields when
 * the call is made, as it checks every call.
 */
export function checkStagedCall(row: Pick<StagedCallRow, 'repository' | 'method' | 'args'>): StagedCall {
  const { repository, method, args } = row;
  if (typeof repository !== 'string' || typeof method !== 'string' || !isStagedEdit(repository, method)) {
    throw new Error('staged call: not an edit a page may stage');
  }
  if (!Array.isArray(args) || args.length !== 2 || typeof args[0] !== 'string') throw new Error('staged call: not (id, fields)');
  return { repository, method, args };
}

export type CallReplay = {
  db: RanchDb;
  doc: Y.Doc;
  tracker: Pick<SaveTracker, 'adopt'>;
  docDbName: string;
  /** The host's repositories, on `doc`. */
  targets: WriteTargets;
  /** A call the document refused (the record was deleted meanwhile, say): the page had shown it, so say so. */
  onRefused(notice: CompensationNotice): void;
};

/**
 * Makes the staged calls in the loaded document, in the order staged, each exactly once
 * however a start is cut (docs/web.md "Edits during a start"). Call only once the document
 * has loaded, after the staged creates (an edit may be of a horse created during the same
 * start).
 *
 * Each call is made under a client id of its own, noted in its row before it is made: the
 * document has structs of that id only if the call was made, so a later start that finds
 * the id in the loaded document knows the change is already there, and does not make a
 * stale call again over what may have synced since. In an order that loses nothing:
 * 1. the rows' client ids are stored;
 * 2. the calls are made, each as a local write of its own id (the tracker adopts it, so it
 *    counts as unsent; y-indexeddb stores it, the sync sends it);
 * 3. their updates are appended to the document's store, and the commit awaited;
 * 4. the rows are deleted and the ids noted for the next start's tracker, in one transaction.
 * Stopped before 3 has committed, either y-indexeddb has stored the change (the id is in
 * the next load: the row is deleted) or nothing has (the call is made again, under a new
 * id). Stopped after, the next load has it.
 */
export async function replayStagedCalls(replay: CallReplay): Promise<void> {
  const { db, doc, tracker, docDbName, targets, onRefused } = replay;
  const rows = await db.stagedCalls.toArray();
  if (rows.length === 0) return;
  const made: number[] = [];
  const todo: { seq: number; call: StagedCall; client: number }[] = [];
  const taken = new Set<number>();
  for (const row of rows) {
    if (typeof row.replay === 'number' && doc.store.clients.has(row.replay)) {
      made.push(row.replay);
      continue;
    }
    try {
      todo.push({ seq: row.seq, call: checkStagedCall(row), client: freshClient(doc, taken) });
    } catch (error) {
      console.error(`Dropped staged edit ${row.seq} (${String(row.createdAt)}): it is not one`, error);
    }
  }
  if (todo.length > 0) {
    await db.transaction('rw', db.stagedCalls, async () => {
      for (const { seq, client } of todo) await db.stagedCalls.update(seq, { replay: client });
    });
  }
  if (made.length > 0) tracker.adopt(made);
  const updates: Uint8Array[] = [];
  const refused: CompensationNotice[] = [];
  for (const { call, client } of todo) {
    const { update, error } = writeAs(doc, client, () => runWrite(targets, call.repository, call.method, call.args));
    if (update) {
      tracker.adopt([client]);
      updates.push(update);
      made.push(client);
    }
    if (error !== null) refused.push(refusal(doc, call, error));
  }
  if (updates.length > 0) await appendStoredUpdates(docDbName, updates);
  await db.transaction('rw', db.stagedCalls, db.meta, async () => {
    if (made.length > 0) await noteStagedClients(db, made);
    await db.stagedCalls.bulkDelete(rows.map((row) => row.seq));
  });
  for (const notice of refused) onRefused(notice);
}

/** A client id the document has never written with, nor this pass. */
function freshClient(doc: Y.Doc, taken: Set<number>): number {
  for (;;) {
    const client = crypto.getRandomValues(new Uint32Array(1))[0]!;
    if (!doc.store.clients.has(client) && !taken.has(client) && client !== doc.clientID) {
      taken.add(client);
      return client;
    }
  }
}

/**
 * Runs `write` (synchronous: the repositories write in one transaction and throw to refuse)
 * with the document writing under `client`, and returns the update it made, if any. The
 * document's own id is back before anything else can run.
 */
function writeAs(doc: Y.Doc, client: number, write: () => unknown): { update: Uint8Array | null; error: unknown } {
  const own = doc.clientID;
  const captured: Uint8Array[] = [];
  const capture = (update: Uint8Array) => captured.push(update);
  doc.on('update', capture);
  doc.clientID = client;
  let error: unknown = null;
  try {
    write();
  } catch (thrown) {
    error = thrown;
  } finally {
    doc.clientID = own;
    doc.off('update', capture);
  }
  return { update: captured.length === 0 ? null : Y.mergeUpdates(captured), error };
}

/** What the person is told of a refused edit: the record is as the document has it. */
function refusal(doc: Y.Doc, call: StagedCall, error: unknown): CompensationNotice {
  const id = String(call.args[0]);
  return { collection: call.repository, id, action: 'reverted', fields: {}, reason: refusalReason(doc, call.repository, id, error) };
}

function refusalReason(doc: Y.Doc, collection: StagedEditRepository, id: string, error: unknown): string {
  if (!collectionMap(doc, collection).has(id)) return 'it was deleted before this change reached it';
  if (error instanceof ValidationError) return error.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return error instanceof Error ? error.message : String(error);
}
