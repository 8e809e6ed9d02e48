import * as Y from 'yjs';
import * as decoding from 'lib0/decoding';
import { WebsocketProvider } from 'y-websocket';
import {
  CloseCode,
  DOC_NAME,
  MESSAGE_ACCESS,
  MESSAGE_ACK,
  MESSAGE_COMPENSATED,
  MESSAGE_EPOCH,
  SYNC_LEDGER_PARAM,
  SYNC_PATH,
  SYNC_USER_PARAM,
} from '../../../shared/index.ts';
import { addNoticeBatch, type NoticeStore } from './compensation-notices.ts';
import { readNotices } from './notice-frames.ts';
import type { SaveTracker } from './save-tracker.ts';
import { readLastSynced, writeLastSynced } from './last-synced.ts';
import { createStore, type Store } from './store.ts';

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected' | 'unauthorized';

export type SyncStatus = {
  /** The browser's own idea of being online. */
  online: boolean;
  connection: ConnectionStatus;
  /** The server said this session may not write (Viewer). */
  readOnly: boolean;
  /** Every change made on this device is durable on the server. */
  saved: boolean;
  /**
   * The server refused the session (a 401 to a photo upload, or the socket closed 4401):
   * the [A7] flow runs; local changes and queued photos stay for the next sign-in.
   */
  sessionExpired: boolean;
  /** When the server last acknowledged this device's state (ms since epoch), across reloads. */
  lastSyncedAt: number | null;
  /**
   * The server's document was rebuilt under a new epoch (docs/sync-rules.md "Document
   * epochs"): this device's document was set aside, its unsent changes kept for the next one.
   * The data layer must start again (the page reloads).
   */
  documentReplaced: boolean;
  /** The server has answered this connection's first sync: the device holds what it had then. */
  synced: boolean;
};

export type SyncConnection = {
  provider: WebsocketProvider;
  status: Store<SyncStatus>;
  /** Connects again at once if not connected (the page was shown again; in the data worker the page says so). */
  reconnect(): void;
  destroy(): void;
};

export function syncServerUrl(location: Pick<Location, 'protocol' | 'host'> = globalThis.location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${SYNC_PATH}`;
}

/** The status the layout shows; it follows the browser's online flag and the tracker. */
export function createSyncStatus(tracker: SaveTracker): { status: Store<SyncStatus>; destroy(): void } {
  const status = createStore<SyncStatus>({
    online: navigator.onLine,
    connection: 'disconnected',
    readOnly: false,
    saved: tracker.isSaved(),
    sessionExpired: false,
    lastSyncedAt: readLastSynced(),
    documentReplaced: false,
    synced: false,
  });
  const onOnline = () => status.set({ online: true });
  const onOffline = () => status.set({ online: false });
  // The page's window or the data worker's scope: both have online and offline.
  globalThis.addEventListener?.('online', onOnline);
  globalThis.addEventListener?.('offline', onOffline);
  const stopTracking = tracker.onChange((saved) => status.set({ saved }));
  return {
    status,
    destroy() {
      globalThis.removeEventListener?.('online', onOnline);
      globalThis.removeEventListener?.('offline', onOffline);
      stopTracking();
    },
  };
}

/**
 * Connects the document to the sync server (start it only once the user is known: the
 * server checks the session cookie on the upgrade). `ack=1` asks the server for our extra
 * messages: the acknowledged state vector, the access level and what it put back of our
 * changes (into `notices`).
 */
export type SyncOptions = {
  serverUrl?: string;
  WebSocketPolyfill?: typeof WebSocket;
  /**
   * Whether the page says the device is online. In the data worker the page's state rules
   * (a worker's own may not follow it): no socket is opened while this is false, and the
   * page's setOnline(true) reconnects (docs/web.md "The data layer in a worker").
   */
  isOnline?: () => boolean;
  /**
   * The user whose changes this device holds ([A12]): sent as SYNC_USER_PARAM, so a server
   * whose session cookie is another user's (signed in since, in another tab) refuses the
   * socket before taking anything in.
   */
  senderId?: string;
  /** What to do with the document's epoch, which the server names first on every connection. */
  epoch?: EpochWatch;
};

/**
 * The epoch this device's document holds state of, and what to do when the server names
 * another (docs/sync-rules.md "Document epochs").
 */
export type EpochWatch = {
  /** null: the document holds nothing yet, so it takes the server's. */
  held: string | null;
  /** The server named its epoch to a document that held none: record it with the document. */
  adopt(epoch: string): void;
  /**
   * The server named another epoch (`named`), or refused this document's state (4409, null).
   * The socket is already closed and stays so; called synchronously, before anything else of
   * the server is applied, so the document is still as this device left it.
   */
  changed(named: string | null): void;
};

export function startSync(
  doc: Y.Doc,
  tracker: SaveTracker,
  status: Store<SyncStatus>,
  notices: NoticeStore,
  { serverUrl = syncServerUrl(), WebSocketPolyfill, isOnline = () => true, senderId, epoch }: SyncOptions = {},
): SyncConnection {
  const provider = new WebsocketProvider(serverUrl, DOC_NAME, doc, {
    // ledger=1: MESSAGE_LEDGER, read by the ledger's pull (ledger/pull.ts), which ranch-data.ts starts with the socket.
    params: { ack: '1', [SYNC_LEDGER_PARAM]: '1', ...(senderId ? { [SYNC_USER_PARAM]: senderId } : {}) },
    connect: isOnline(),
    ...(WebSocketPolyfill ? { WebSocketPolyfill } : {}),
  });

  let held = epoch?.held ?? null;
  let replaced = false;
  const epochChanged = (named: string | null) => {
    if (replaced) return;
    replaced = true;
    provider.disconnect(); // detaches the socket's handlers: nothing more of the server is applied
    epoch?.changed(named);
  };
  provider.messageHandlers[MESSAGE_EPOCH] = (_encoder, decoder) => {
    const named = decoding.readVarString(decoder);
    if (held === null) {
      held = named;
      epoch?.adopt(named);
    } else if (held !== named) epochChanged(named);
  };
  provider.messageHandlers[MESSAGE_ACK] = (_encoder, decoder) => {
    tracker.acknowledge(Y.decodeStateVector(decoding.readVarUint8Array(decoder)));
    // The server answers every sync and every update of ours with this, so it dates the last exchange.
    const now = Date.now();
    writeLastSynced(now);
    status.set({ lastSyncedAt: now });
  };
  provider.messageHandlers[MESSAGE_ACCESS] = (_encoder, decoder) => {
    status.set({ readOnly: decoding.readVarUint(decoder) === 1 });
  };
  provider.messageHandlers[MESSAGE_COMPENSATED] = (_encoder, decoder) => {
    // The server has already sent the update that puts the values back; this says why.
    const received = readNotices(decoder);
    if (received) addNoticeBatch(notices, received);
  };

  provider.on('status', ({ status: connection }) => status.set({ connection }));
  provider.on('sync', (synced: boolean) => status.set({ synced }));
  provider.on('closed', ({ code }) => {
    if (code === CloseCode.Unauthorized) status.set({ connection: 'unauthorized', sessionExpired: true });
    if (code === CloseCode.EpochChanged) epochChanged(null);
  });
  // 1012: the server is restarting after committing what it took in ([Y8]). Not signed out,
  // and not a failure to back off from: the provider retries after its shortest delay
  // (200 ms), whatever came before, and resends what is not acknowledged.
  provider.on('connection-close', (event) => {
    if (event?.code === CloseCode.ServiceRestart) provider.wsUnsuccessfulReconnects = 0;
  });

  // Browsers throttle or freeze sockets of hidden pages and phones drop them on network
  // changes; reconnect at once instead of waiting out the provider's backoff.
  const reconnect = () => {
    if (provider.wsconnected || provider.wsconnecting || !isOnline()) return;
    provider.wsUnsuccessfulReconnects = 0;
    provider.connect();
  };
  const onOnline = () => {
    // A socket that stayed "open" through an outage is usually dead: start a fresh one.
    if (provider.wsconnected) provider.disconnect();
    reconnect();
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') reconnect();
  };
  globalThis.addEventListener?.('online', onOnline);
  // A worker has no document and no pageshow: the page calls reconnect() (docs/web.md "The data layer in a worker").
  if (typeof document !== 'undefined') {
    globalThis.addEventListener('pageshow', reconnect);
    document.addEventListener('visibilitychange', onVisible);
  }

  return {
    provider,
    status,
    reconnect,
    destroy() {
      globalThis.removeEventListener?.('online', onOnline);
      if (typeof document !== 'undefined') {
        globalThis.removeEventListener('pageshow', reconnect);
        document.removeEventListener('visibilitychange', onVisible);
      }
      provider.destroy();
    },
  };
}
