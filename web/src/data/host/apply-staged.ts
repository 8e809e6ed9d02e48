import * as Y from 'yjs';
import { LOCAL_ORIGIN } from '../origins.ts';
import type { SaveTracker } from '../save-tracker.ts';

/**
 * Applies a create the page staged while the host was loading (staged-creates.ts) as a
 * local write: y-indexeddb stores it (again; harmless), the sync sends it, and its client id
 * is this device's, so it counts as unsent until the server acknowledges it. The bytes come
 * from another thread and are not trusted: anything that is not a Yjs update of new records
 * (no deletions) is refused before it touches the document.
 */
export function applyStaged(doc: Y.Doc, tracker: Pick<SaveTracker, 'adopt'>, value: unknown): void {
  // Not `instanceof`: a typed array posted from another realm (a test's MessageChannel) is
  // a Uint8Array of that realm. Copied, so nothing else holds the bytes being applied.
  const isBytes = ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]';
  if (!isBytes) throw new Error('applyStaged: the staged update must be a Uint8Array');
  const update = new Uint8Array(value as Uint8Array);
  let decoded: ReturnType<typeof Y.decodeUpdate>;
  try {
    decoded = Y.decodeUpdate(update);
  } catch {
    throw new Error('applyStaged: not a Yjs update');
  }
  if (decoded.ds.clients.size > 0) throw new Error('applyStaged: a staged create deletes nothing');
  tracker.adopt(new Set(decoded.structs.map((struct) => struct.id.client)));
  Y.applyUpdate(doc, update, LOCAL_ORIGIN);
}
