import * as Y from 'yjs';
import type { RanchDb } from './db.ts';
import { LOCAL_ORIGIN } from './origins.ts';
import { noteStagedClients, type SaveTracker } from './save-tracker.ts';
import { appendStoredUpdates } from './stored-update.ts';
import { addAtOnce } from './add-at-once.ts';
import { type CallReplay, replayStagedCalls } from './staged-calls.ts';

/**
 * The read database's `stagedUpdates` table: how a create the page made while the host was
 * loading (staged-writes.ts) reaches the document (docs/web.md "Writable sooner"). Not
 * y-indexeddb's own store: its load holds a readwrite transaction on that through the whole
 * apply, so a page appending there waited for the load (seconds on a phone).
 */

/**
 * Stores a staged create's update. Resolves once committed; from then on the create is on
 * the device, and the host's next drain (or load) applies it. The drain notes the update's
 * client ids for the save tracker when it deletes the row.
 */
export function stageUpdate(db: RanchDb, update: Uint8Array): Promise<void> {
  return addAtOnce(db, db.stagedUpdates, { update, createdAt: new Date().toISOString() });
}

/**
 * A staged update as read back, checked: the rows come from another thread (any page of the
 * origin may write the table) and are not trusted. Anything but a Yjs update of new
 * records (bytes that do not decode, that delete anything, or that do not apply whole on
 * an empty document) throws. Returns a copy of the bytes and the client ids that wrote them.
 *
 * The trial apply matters because a valid row is appended to the document's store before
 * it is applied: an update that threw in Yjs, or waited for structs the device does not
 * have, would be stored for every later load. A page's create is a fresh document's whole
 * state, so it applies whole on an empty one.
 */
export function checkStaged(value: unknown): { update: Uint8Array; clients: Set<number> } {
  // Not `instanceof`: a typed array from another realm (fake-indexeddb's structured clone, a
  // test's MessageChannel) is a Uint8Array of that realm.
  const isBytes = ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]';
  if (!isBytes) throw new Error('staged update: not a Uint8Array');
  const update = new Uint8Array(value as Uint8Array);
  let decoded: ReturnType<typeof Y.decodeUpdate>;
  try {
    decoded = Y.decodeUpdate(update);
  } catch {
    throw new Error('staged update: not a Yjs update');
  }
  if (decoded.ds.clients.size > 0) throw new Error('staged update: a staged create deletes nothing');
  const trial = new Y.Doc();
  try {
    Y.applyUpdate(trial, update);
  } catch {
    throw new Error('staged update: does not apply');
  } finally {
    trial.destroy();
  }
  if (trial.store.pendingStructs !== null || trial.store.pendingDs !== null) {
    throw new Error('staged update: not whole (it needs changes this device may not have)');
  }
  return { update, clients: new Set(decoded.structs.map((struct) => struct.id.client)) };
}

export type StagedDrain = {
  /** Applies every row staged so far; calls run one after the other. Never rejects. */
  run(): Promise<void>;
  /** No further pass starts; resolves once the one under way (if any) has ended. */
  stop(): Promise<void>;
  /** While a pass is asked for or under way: resolves once the passes asked for so far have ended (never rejects). Else null. */
  pending(): Promise<void> | null;
};

/**
 * Empties the table into the loaded document, then the staged edits' (staged-calls.ts).
 * Call run() only once the document has loaded: the rows are appended to y-indexeddb's
 * store, which the load holds.
 *
 * The creates' part of a pass, in an order that loses nothing whenever it stops: the valid
 * rows' updates are appended to the document's store (`docDbName`) first; then the rows are
 * deleted and their client ids noted for the save tracker, in one transaction; then the
 * updates are applied as local writes (the tracker adopts the ids, so they count as unsent,
 * and the sync sends them). Stopped before the delete, the next pass or load applies them
 * again, which changes nothing in Yjs; stopped after it, the next load has them from the
 * document's store and its tracker adopts the noted ids. Noted before the tracker adopts
 * them, so the tracker's next store takes the note away with the ids it stores. A row that
 * fails the check is deleted unapplied and logged; it does not hold up the others.
 */
export function createStagedDrain(target: {
  db: RanchDb;
  doc: Y.Doc;
  tracker: Pick<SaveTracker, 'adopt'>;
  docDbName: string;
  /** The staged edits' replay (staged-calls.ts), after the creates: an edit may be of one of them. */
  calls: Pick<CallReplay, 'targets' | 'onRefused'>;
}): StagedDrain {
  const { db, doc, tracker, docDbName } = target;
  let stopped = false;
  let last: Promise<void> = Promise.resolve();
  // A pass not yet started sees every row committed before it starts: later calls share it.
  let queued: Promise<void> | null = null;
  let unsettled = 0;

  const applyCreates = async () => {
    const rows = await db.stagedUpdates.toArray();
    if (rows.length === 0) return;
    const valid: { update: Uint8Array; clients: Set<number> }[] = [];
    for (const row of rows) {
      try {
        valid.push(checkStaged(row.update));
      } catch (error) {
        console.error(`Dropped staged create ${row.seq} (${String(row.createdAt)}): it is not one`, error);
      }
    }
    const updates = valid.map((row) => row.update);
    if (updates.length > 0) await appendStoredUpdates(docDbName, updates);
    const clients = valid.flatMap((row) => [...row.clients]);
    await db.transaction('rw', db.stagedUpdates, db.meta, async () => {
      if (clients.length > 0) await noteStagedClients(db, clients);
      await db.stagedUpdates.bulkDelete(rows.map((row) => row.seq));
    });
    for (const { update, clients } of valid) {
      tracker.adopt(clients);
      Y.applyUpdate(doc, update, LOCAL_ORIGIN);
    }
  };

  const pass = async () => {
    await applyCreates();
    if (!stopped) await replayStagedCalls({ db, doc, tracker, docDbName, ...target.calls });
  };

  return {
    run() {
      if (queued) return queued;
      const next = last
        .then(() => {
          queued = null;
          return stopped ? undefined : pass();
        })
        // Whatever failed stays in the table for the next pass or load.
        .catch((error: unknown) => console.error('Could not apply the creates or edits staged before the load', error));
      queued = next;
      last = next;
      unsettled += 1;
      void next.then(() => (unsettled -= 1));
      return next;
    },
    stop() {
      stopped = true;
      return last;
    },
    pending: () => (unsettled > 0 ? last : null),
  };
}
