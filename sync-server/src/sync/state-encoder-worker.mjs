// Encodes a document's sync step 2 answers on a thread of its own (state-answers.ts): a
// replica of the document, fed the updates the host applies, in order. An answer to a
// device that holds nothing is the whole document, which takes a noticeable part of a
// second for a large ranch; on the main thread it would hold every commit that long.
// Plain .mjs because worker threads cannot load .ts files through tsx on Node 20.
import { parentPort, workerData } from 'node:worker_threads';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';

/** y-websocket's message type for sync messages, and y-protocols' sync step 2. */
const MESSAGE_SYNC = 0;
const SYNC_STEP_2 = 1;
/** Answers from this size on are handed over in shared memory, not copied to the main thread. */
const SHARE_FROM_BYTES = 1 << 20;

const doc = new Y.Doc({ gc: true });
/** The whole document's answer, kept until the document changes. */
let whole = null;
doc.on('afterTransaction', () => {
  whole = null;
});
doc.transact(() => {
  for (const update of workerData.updates) Y.applyUpdate(doc, update);
});

function holdsNothing(stateVector) {
  for (const [client, clock] of Y.decodeStateVector(stateVector)) {
    if (clock > 0 && Y.getState(doc.store, client) > 0) return false;
  }
  return true;
}

function message(update) {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_SYNC);
  encoding.writeVarUint(encoder, SYNC_STEP_2);
  encoding.writeVarUint8Array(encoder, update);
  const bytes = encoding.toUint8Array(encoder);
  if (bytes.byteLength < SHARE_FROM_BYTES) return bytes;
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return shared;
}

parentPort.on('message', (request) => {
  if (request.kind === 'apply') {
    doc.transact(() => {
      for (const update of request.updates) Y.applyUpdate(doc, update);
    });
    return;
  }
  const started = performance.now();
  try {
    // A compaction's snapshot (request.stateVector null) is the whole document's answer too.
    const bytes =
      !request.stateVector || holdsNothing(request.stateVector)
        ? (whole ??= message(Y.encodeStateAsUpdate(doc)))
        : message(Y.encodeStateAsUpdate(doc, request.stateVector));
    parentPort.postMessage({ id: request.id, message: bytes, ms: performance.now() - started });
  } catch (error) {
    parentPort.postMessage({ id: request.id, error: String(error?.message ?? error), ms: performance.now() - started });
  }
});
