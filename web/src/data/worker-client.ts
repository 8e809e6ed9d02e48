import { inForeground } from '../lib/background-turn.ts';
import { createNoticeStore } from './compensation-notices.ts';
import { openRanchDb, READ_DB_NAME } from './db.ts';
import { type HostEvents, onHostEvent, remoteControls, remoteQueries } from './host/host-api.ts';
import type { DataOwner } from './data-owner.ts';
import type { PageData } from './page-data.ts';
import { createPhotoOutbox } from './photos/photo-outbox.ts';
import { writesAround } from './ranch-writes.ts';
import type { UploadEvent } from './photos/photo-uploader.ts';
import type { RpcClient } from './rpc/client.ts';
import { hostWrites } from './outbox/outbox.ts';
import { createStore } from './store.ts';
import { readLastSynced, writeLastSynced } from './last-synced.ts';
import type { SyncStatus } from './sync.ts';

export type WorkerData = PageData & {
  /** For the bench and tests (window.__ranch.provider): the socket's first sync answered, and a way to drop it. */
  provider: { readonly synced: boolean; disconnect(): Promise<void> };
  /** The id of the host serving this tab (tabs sharing one host get the same); for tests. */
  hostId(): Promise<string>;
  destroy(): void;
};

/**
 * The page's side of the data worker (docs/web.md "The data layer in a worker"): reads its
 * own Dexie (live queries see the worker's writes through Dexie's BroadcastChannel), writes
 * and controls through `client`, and keeps the state the worker reports in the stores the
 * screens already read.
 */
export type WorkerDataOptions = {
  readDbName?: string;
  docLoadAfter?: Promise<unknown>;
  /** Another tab's worker took over (data/elected-host.ts): what this page said is said again. */
  onNewHost?: (listener: () => void) => () => void;
};

export function openWorkerData(client: RpcClient, options: WorkerDataOptions = {}): WorkerData {
  const db = openRanchDb(options.readDbName ?? READ_DB_NAME);
  const controls = remoteControls(client);
  const status = createStore<SyncStatus>({
    online: navigator.onLine,
    connection: 'disconnected',
    readOnly: false,
    saved: true,
    sessionExpired: false,
    lastSyncedAt: readLastSynced(),
    documentReplaced: false,
    synced: false,
  });
  const notices = createNoticeStore();
  const waiting = createStore({ records: 0 });
  const invalidCount = createStore({ invalid: 0 });
  const uploadListeners = new Set<(event: UploadEvent) => void>();
  let docLoaded = false;
  let synced = false;
  let markLoaded: () => void = () => {};
  const loaded = new Promise<void>((resolve) => (markLoaded = resolve));

  const stops = [
    onHostEvent(client, 'status', (next: HostEvents['status']) => {
      // The worker has no localStorage: the last acknowledgement is kept by the page.
      const lastSyncedAt = Math.max(next.lastSyncedAt ?? 0, status.get().lastSyncedAt ?? 0) || null;
      if (lastSyncedAt !== null && lastSyncedAt !== status.get().lastSyncedAt) writeLastSynced(lastSyncedAt);
      status.set({ ...next, online: navigator.onLine, lastSyncedAt });
    }),
    onHostEvent(client, 'notices', (next) => notices.set(next)),
    onHostEvent(client, 'waiting', (records) => waiting.set({ records })),
    onHostEvent(client, 'invalid', (next) => invalidCount.set(next)),
    onHostEvent(client, 'synced', (next) => (synced = next)),
    onHostEvent(client, 'loaded', (next) => {
      if (!next) return;
      docLoaded = true;
      markLoaded();
    }),
    onHostEvent(client, 'upload', (event) => uploadListeners.forEach((listener) => listener(event))),
  ];

  // What this page has said, so it can say it again to a new host. A call the host could not
  // answer (it went away) is said again then; nothing waits for these answers.
  const said: { loading: boolean; owner: DataOwner | null } = { loading: false, owner: null };
  const ignore = () => {};
  const tellHost = () => {
    void controls.setOnline(navigator.onLine).catch(ignore);
    if (said.loading) void controls.startLoading().catch(ignore);
    if (said.owner) void controls.connect(said.owner).catch(ignore);
  };
  void (options.docLoadAfter ?? Promise.resolve()).then(() => {
    said.loading = true;
    void controls.startLoading().catch(ignore);
  });

  // The page's own idea of being online rules the worker's socket and uploads (a worker's
  // may lag behind, and Chromium's emulated offline state reaches only the page). Sent before anything can
  // connect: the RPC keeps the order of calls.
  tellHost();
  const stopNewHost = options.onNewHost?.(tellHost) ?? ignore;
  const onOnline = () => {
    status.set({ online: true });
    void controls.setOnline(true).catch(ignore);
  };
  const onOffline = () => {
    status.set({ online: false });
    void controls.setOnline(false).catch(ignore);
  };
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  // The worker has no document to watch: the page says when it is shown again.
  const onVisible = () => {
    if (document.visibilityState === 'visible') void controls.reconnect().catch(ignore);
  };
  const onPageShow = () => void controls.reconnect().catch(ignore);
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener('pageshow', onPageShow);

  const photos = createPhotoOutbox(db);
  return {
    db,
    // Every write is appended to the device's outbox here, and the host applies it from
    // there. A write is what the person waits for: the list's background reads let it go first.
    writes: writesAround(hostWrites(db, controls), inForeground),
    photos,
    uploads: {
      onEvent(listener) {
        uploadListeners.add(listener);
        return () => uploadListeners.delete(listener);
      },
    },
    status,
    notices,
    waiting,
    projection: { invalidCount, idle: () => controls.idle() },
    loaded,
    get docLoaded() {
      return docLoaded;
    },
    connect(owner) {
      said.owner = owner;
      return controls.connect(owner);
    },
    countUnsent: () => controls.countUnsent(),
    stopSync: () => void controls.stopSync(),
    dismissRefused: (intent) => controls.dismissRefused(intent),
    countUnsaved: () => controls.countUnsaved(),
    ...remoteQueries(client),
    clearDocument: () => controls.clearDocument(),
    hostId: () => controls.hostId(),
    provider: {
      get synced() {
        return synced;
      },
      disconnect: () => controls.disconnect(),
    },
    destroy() {
      for (const stop of stops) stop();
      stopNewHost();
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('pageshow', onPageShow);
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
      client.close();
      db.close();
    },
  };
}
