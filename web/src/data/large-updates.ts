import * as decoding from 'lib0/decoding';
import * as syncProtocol from 'y-protocols/sync';
import type { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';

/**
 * From this size on (bytes), an update from the server reaches the document's 'update'
 * listeners as it was received. A first sync of a whole ranch is one update of megabytes.
 */
export const LARGE_UPDATE_BYTES = 1 << 20;

/** y-websocket's message type for y-protocols' sync messages. */
const MESSAGE_SYNC = 0;

type UpdateListener = (update: Uint8Array, origin: unknown, doc: Y.Doc, transaction: Y.Transaction) => void;
/** lib0's Observable keeps its listeners here, by event name (Yjs 13.6's Y.Doc is one). */
type Listeners = { _observers?: unknown };

/**
 * Applies `update` and gives the document's 'update' listeners (y-indexeddb, the provider,
 * the save tracker) the bytes as received.
 *
 * When anything listens to 'update', Yjs encodes every transaction again as an update to
 * pass on. For a whole ranch that second encoding is seconds of the data worker on a phone,
 * only to store bytes the device already had.
 * So no 'update' listener is registered while this update is applied, and the listeners
 * then get the received bytes instead: they hold the same changes, and whatever they hold
 * beyond the transaction (what the document already had, or could not integrate yet) is
 * applied again as a no-op, or kept pending again, wherever they are replayed.
 *
 * If applying fails part way, the listeners get what was integrated, encoded by Yjs, and
 * the error is thrown: bytes that fail to apply are never stored.
 */
export function applyAsReceived(doc: Y.Doc, update: Uint8Array, origin: unknown): void {
  const observers = (doc as unknown as Listeners)._observers;
  const listeners = observers instanceof Map ? (observers.get('update') as Set<UpdateListener> | undefined) : undefined;
  if (!(observers instanceof Map) || !listeners) {
    Y.applyUpdate(doc, update, origin);
    return;
  }
  const before = Y.encodeStateVector(doc);
  const seen: { transaction?: Y.Transaction } = {};
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    // A listener added while applying (an observer reacting to the change) is kept too.
    const added = observers.get('update') as Set<UpdateListener> | undefined;
    observers.set('update', added ? new Set([...listeners, ...added]) : listeners);
  };
  // Yjs cleans up the update's own transaction first, and passes it to 'update' at the end
  // of that clean-up; only there must the listeners be away. A transaction an observer
  // starts meanwhile (a change made on this device, to be stored and sent) is cleaned up
  // after it: the listeners are back before its observers run, and get it as Yjs encodes it.
  const beforeObservers = (transaction: Y.Transaction) => {
    seen.transaction ??= transaction;
    if (transaction !== seen.transaction) restore();
  };
  doc.on('beforeObserverCalls', beforeObservers);
  observers.delete('update');
  let failure: { error: unknown } | null = null;
  try {
    Y.applyUpdate(doc, update, origin);
  } catch (error) {
    failure = { error };
  } finally {
    doc.off('beforeObserverCalls', beforeObservers);
    restore();
  }
  const { transaction } = seen;
  if (failure === null) {
    if (transaction) doc.emit('update', [update, origin, doc, transaction]);
    return;
  }
  if (transaction) doc.emit('update', [Y.encodeStateAsUpdate(doc, before), origin, doc, transaction]);
  throw failure.error;
}

/**
 * Makes `provider` apply large sync messages (a sync step 2 or an update of at least
 * `minBytes`) with applyAsReceived. Smaller ones, and every other message, are handled by
 * y-websocket as before: Yjs's own encoding is cheap for them and holds exactly the change.
 */
export function applyLargeUpdatesAsReceived(provider: WebsocketProvider, minBytes = LARGE_UPDATE_BYTES): void {
  const handleSync = provider.messageHandlers[MESSAGE_SYNC];
  if (!handleSync) throw new Error('y-websocket has no sync message handler');
  provider.messageHandlers[MESSAGE_SYNC] = (encoder, decoder, handler, emitSynced, messageType) => {
    const peek = decoding.clone(decoder);
    const type = readLargeUpdate(peek, minBytes);
    if (type === null) {
      handleSync(encoder, decoder, handler, emitSynced, messageType);
      return;
    }
    try {
      // Copied out of the message (a few milliseconds): a view would hand y-indexeddb the
      // whole frame to store, and keep it alive as long as anything holds the update.
      applyAsReceived(provider.doc, decoding.readVarUint8Array(peek).slice(), provider);
    } catch (error) {
      // As y-protocols does: a broken update is reported, not thrown into the socket's handler.
      console.error('Caught error while handling a Yjs update', error);
    }
    // Nothing to answer: a step 2 or an update needs no reply (y-websocket sends none either).
    if (emitSynced && type === syncProtocol.messageYjsSyncStep2 && !provider.synced) provider.synced = true;
  };
}

/**
 * The sync message type when the message is a step 2 or an update of at least `minBytes`,
 * leaving `decoder` at the update; null for anything else, and for a message too short to
 * say (y-websocket's own handler meets it then, as before).
 */
function readLargeUpdate(decoder: decoding.Decoder, minBytes: number): number | null {
  try {
    const type = decoding.readVarUint(decoder);
    if (type !== syncProtocol.messageYjsSyncStep2 && type !== syncProtocol.messageYjsUpdate) return null;
    return decoding.peekVarUint(decoder) >= minBytes ? type : null;
  } catch {
    return null;
  }
}
