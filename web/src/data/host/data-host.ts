import { openRanchData, type RanchData, type RanchDataOptions } from '../ranch-data.ts';
import { createRpcHost, type Handlers, type RpcHost } from '../rpc/host.ts';
import { type HostControls, type HostEvents, QUERY_METHODS } from './host-api.ts';
import type { HostQueries } from './queries.ts';

export type DataHost = {
  /** The data layer as it runs here; for tests and for the worker entry. */
  data: RanchData;
  rpc: RpcHost;
  destroy(): Promise<void>;
};

export type DataHostOptions = Omit<RanchDataOptions, 'docLoadAfter'> & {
  /**
   * Called once the device's document was cleared (Clear Local Data, sign-out) and the
   * answer is on its way, or replaced by the server's of a new epoch (the status says so
   * first): a worker closes itself, so the next tab starts a fresh host.
   */
  onCleared?: () => void;
  /** Load the stored document at once instead of waiting for startLoading(); false by default. */
  loadAtOnce?: boolean;
};

/**
 * Everything that holds the ranch document, behind the RPC (docs/web.md "The data layer in a
 * worker"): the Y.Doc with y-indexeddb, the projection, the save tracker, the sync socket,
 * the photo uploader and the repositories. It uses no DOM, so it runs in the data worker,
 * and in-thread in tests. Attach the endpoints the pages talk through with `rpc.attach`.
 */
export function createDataHost(options: DataHostOptions = {}): DataHost {
  let startLoading: () => void = () => {};
  const gate = new Promise<void>((resolve) => (startLoading = resolve));
  const data = openRanchData({ ...options, docLoadAfter: options.loadAtOnce ? Promise.resolve() : gate });
  let closed = false;
  let replacedNoted = false;

  const hostId = crypto.randomUUID();
  const controls: HostControls = {
    hostId: () => hostId,
    // A write starts the load whatever the page shows.
    applyIntent(id) {
      startLoading();
      return data.applyIntent(String(id));
    },
    queuePhoto: (id) => data.photos.queue(String(id)),
    dismissRefused: (intent) => data.dismissRefused(Number(intent)),
    startLoading: () => startLoading(),
    connect: (owner) => data.connect(owner),
    countUnsent: () => data.countUnsent(),
    stopSync: () => data.stopSync(),
    reconnect() {
      data.sync?.reconnect();
      void data.uploads.kick();
      // A write a tab appended and closed before telling the host waits no longer than this.
      if (data.docLoaded) void data.drainOutbox();
    },
    async idle() {
      await data.loaded;
      await data.projection.idle();
    },
    countUnsaved: () => data.countUnsaved(),
    disconnect: () => data.sync?.provider.disconnect(),
    setOnline: (online) => data.setOnline(online === true),
    async clearDocument() {
      // Stops the projection, the sync, the uploads and the outbox's drain before emptying the document.
      await data.clearDocument();
      // The page deletes the read model next; an open connection here would block it.
      data.db.close();
      // After this call's answer has been posted (answers go out once the handler settles).
      if (options.onCleared) setTimeout(options.onCleared, 0);
    },
  };

  const handlers = { ...pickQueries(data), ...controls } as unknown as Handlers;
  const rpc = createRpcHost(handlers, {
    snapshot: () => [
      ['status', data.status.get()],
      ['notices', data.notices.get()],
      ['waiting', data.waiting.get().records],
      ['invalid', data.projection.invalidCount.get()],
      ['loaded', data.docLoaded],
    ],
  });
  const emit = <K extends keyof HostEvents>(name: K, payload: HostEvents[K]) => {
    if (!closed) rpc.emit(name, payload);
  };

  const stops = [
    data.waiting.subscribe(() => emit('waiting', data.waiting.get().records)),
    data.status.subscribe(() => {
      emit('status', data.status.get());
      emit('synced', data.sync?.provider.synced ?? false);
      // The document was replaced (a new epoch): this host holds nothing worth keeping; the
      // pages reload (SignedInShell) and the next starts a fresh host with the kept changes.
      if (data.status.get().documentReplaced && options.onCleared && !replacedNoted) {
        replacedNoted = true;
        setTimeout(options.onCleared, 0);
      }
    }),
    data.notices.subscribe(() => emit('notices', data.notices.get())),
    data.projection.invalidCount.subscribe(() => emit('invalid', data.projection.invalidCount.get())),
    data.uploads.onEvent((event) => emit('upload', event)),
  ];
  void data.loaded.then(() => emit('loaded', true));

  return {
    data,
    rpc,
    async destroy() {
      closed = true;
      for (const stop of stops) stop();
      rpc.close();
      await data.destroy();
    },
  };
}

/** The data layer's queries (queries.ts), as the RPC serves them. */
function pickQueries(data: HostQueries): HostQueries {
  return Object.fromEntries(QUERY_METHODS.map((method) => [method, data[method]])) as unknown as HostQueries;
}
