import * as Y from 'yjs';
import type { StagedUpdateRow } from '../db.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import type { SaveTracker } from '../save-tracker.ts';

/**
 * Creates an earlier version of the app staged in the read database's `stagedUpdates` table
 * while its data host loaded, and that no host applied before the app was updated: the
 * outbox's first pass applies them (drain.ts), in the pass's capture, so they are stored and
 * removed as its intents are. A row that is not a create is dropped and logged.
 */
export function applyLegacyCreates(doc: Y.Doc, rows: readonly StagedUpdateRow[], tracker: Pick<SaveTracker, 'adopt'>): void {
  for (const row of rows) {
    try {
      const { update, clients } = checkStaged(row.update);
      // Written on this device, under the page's client ids: unsent until the server has them.
      tracker.adopt(clients);
      Y.applyUpdate(doc, update, LOCAL_ORIGIN);
    } catch (error) {
      console.error(`Dropped staged create ${row.seq} (${String(row.createdAt)}): it is not one`, error);
    }
  }
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
function checkStaged(value: unknown): { update: Uint8Array; clients: Set<number> } {
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
