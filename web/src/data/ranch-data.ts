import { openRanchDb, READ_DB_NAME, type RanchDb } from './db.ts';
import { clearedError, isSealed, sealWrites } from './sealed-writes.ts';
import { startProjection, type Projection } from './projection.ts';
import { createBuyerRepository } from './repositories/buyers.ts';
import { createCareRepository } from './repositories/care.ts';
import { createHorseRepository } from './repositories/horses.ts';
import { createLookupRepository } from './repositories/lookups.ts';
import { createOwnerRepository } from './repositories/owners.ts';
import { createPhotoOutbox } from './photos/photo-outbox.ts';
import { createPhotoUploader, type PhotoUploader } from './photos/photo-uploader.ts';
import { createSaveTracker, DOCUMENT_TRACKER_KEYS, type SaveTracker } from './save-tracker.ts';
import { createOutboxDrain, type DocumentTargets } from './outbox/drain.ts';
import { appendIntent, outboxWrites } from './outbox/outbox.ts';
import { addNoticeBatch, createNoticeStore, type NoticeStore } from './compensation-notices.ts';
import type { RanchWrites } from './ranch-writes.ts';
import { countUnsavedRecords } from './unsaved-changes.ts';
import { claimData, type ConnectOutcome, type DataOwner, type Unsent } from './data-owner.ts';
import { createWaitingCount } from './waiting-count.ts';
import { startConflictRefresh } from './conflict-cache.ts';
import type { LedgerPullOptions } from './ledger/pull.ts';
import type { LedgerPush } from './ledger/push.ts';
import { startLedgerSync } from './ledger/ledger-sync.ts';
import { countWaitingEntries } from './ledger/ledger-rows.ts';
import { dismissRefused, tellRefused } from './ledger/refused-entries.ts';
import { createQueries, type HostQueries } from './host/queries.ts';
import { applyCarriedChanges, forgetCarryOver, keepCarryOver, readCarryOver, unrecordedEpoch, unsentChanges } from './epoch-carry-over.ts';
import type { Store } from './store.ts';
import { createSyncStatus, startSync, type SyncConnection, type SyncStatus } from './sync.ts';
import { DOC_DB_NAME, openLocalDoc, type LocalDoc } from './ydoc.ts';

/**
 * The document's repositories (photos: the outbox of those not yet on the server); the
 * ledger's (sales, payments, corrections) are the outbox drain's, written through `writes`.
 */
export type RanchData = LocalDoc &
  DocumentTargets &
  HostQueries & {
    db: RanchDb;
    projection: Projection;
    /** Sends the outbox; started by connect(). */
    uploads: PhotoUploader;
    /** What screens write through (ranch-writes.ts); the repositories above are the document's side of it. */
    writes: RanchWrites;
    tracker: SaveTracker;
    status: Store<SyncStatus>;
    /** What the server put back of this device's changes, and why (MESSAGE_COMPENSATED). */
    notices: NoticeStore;
    /** Records with changes the server has not acknowledged (waiting-count.ts). */
    waiting: Store<{ records: number }>;
    /** The same, counted now (Clear Local Data's warning). */
    countUnsaved(): Promise<number>;
    /** Clear Local Data: stops syncing and sending, then empties the stored document. */
    clearDocument(): Promise<void>;
    /**
     * Applies the outbox's intents up to and including `id` once the document has loaded
     * (outbox/drain.ts), and answers as that intent's write would.
     */
    applyIntent(id: string): Promise<unknown>;
    /**
     * Applies the intents in the outbox once the document has loaded; the load itself does
     * so before `loaded` resolves. Never rejects: what could not be applied waits for the next call.
     */
    drainOutbox(): Promise<void>;
    /**
     * Starts syncing with the server and sending photos (idempotent); call once the user is
     * known. The socket opens once the local document has loaded, so its first sync step
     * asks the server only for what this device lacks, not for the whole ranch again.
     * Nothing is sent when the data on this device is another user's ([A12], data-owner.ts).
     */
    connect(owner: DataOwner): Promise<ConnectOutcome>;
    /** Changes and photos the server has not acknowledged, counted once the document has loaded (sign-out's warning). */
    countUnsent(): Promise<Unsent>;
    /** [S19] The person dismissed the notice of a refused ledger entry (its outbox row): it goes. */
    dismissRefused(intent: number): Promise<void>;
    /** The session ended ([A13]): no socket and no upload until connect() is called again. */
    stopSync(): void;
    /**
     * The page's online state (navigator.onLine and its events). In the data worker the
     * page's state rules: no socket and no upload while the page says offline, and going
     * online reconnects at once. The in-thread data layer follows its own events as well.
     */
    setOnline(online: boolean): void;
    /** Whether the stored document has been applied (writes are offered from then on). */
    readonly docLoaded: boolean;
    /** The live connection, once connect() was called and the document loaded. */
    readonly sync: SyncConnection | null;
    destroy(): Promise<void>;
  };

export type RanchDataOptions = {
  docDbName?: string;
  readDbName?: string;
  syncUrl?: string;
  /** The socket class (tests in Node); the browser's WebSocket by default. */
  WebSocketPolyfill?: typeof WebSocket;
  /** When to start loading the document from IndexedDB (ydoc.ts); at once by default. */
  docLoadAfter?: Promise<unknown>;
  /** Where and how the ledger is pulled and pushed (tests in Node: the server's address, the session cookie, a shorter backoff). */
  ledger?: LedgerPullOptions & { baseDelayMs?: number };
};

/** Resolves when the read model is empty (a first visit: no rows to show first); else never. */
function nothingToShow(db: RanchDb): Promise<void> {
  const never = new Promise<void>(() => {});
  return Promise.all([db.horses.count(), db.sales.count()]).then(
    ([horses, sales]) => (horses + sales === 0 ? undefined : never),
    () => never,
  );
}

/** Everything the data layer needs, wired as docs/architecture.md "One horse edit" describes ([O2]). */
export function openRanchData(options: RanchDataOptions = {}): RanchData {
  const db = openRanchDb(options.readDbName ?? READ_DB_NAME);
  // A write starts the load whatever the page shows.
  let loadNow: () => void = () => {};
  const writeStarted = new Promise<void>((resolve) => (loadNow = resolve));
  const docDbName = options.docDbName ?? DOC_DB_NAME;
  const local = openLocalDoc(docDbName, options.docLoadAfter && Promise.race([options.docLoadAfter, nothingToShow(db), writeStarted]));
  let docLoaded = false;
  let destroyed = false;
  const tracker = createSaveTracker(local.doc, db);
  const syncStatus = createSyncStatus(tracker);
  const notices = createNoticeStore();
  const waiting = createWaitingCount(local.doc, tracker);
  let sync: SyncConnection | null = null;
  let stopConflicts = () => {};
  let stopLedger = () => {};
  let push: LedgerPush | null = null;
  let connecting = false;
  let online = true;
  // Both must say online: the page's word (setOnline; a worker's own state may not follow
  // the page's) and this thread's own navigator.onLine (a page's may not follow a
  // worker's either: one CI run saw a worker's socket sync while the page was offline).
  const isOnline = () => online && (globalThis.navigator?.onLine ?? true);
  const horses = createHorseRepository(local.doc);
  const photos = createPhotoOutbox(db);
  const uploads = createPhotoUploader({ outbox: photos, horses, isOnline });
  const repositories = {
    horses,
    photos,
    lookups: createLookupRepository(local.doc),
    owners: createOwnerRepository(local.doc),
    buyers: createBuyerRepository(local.doc),
    careEntries: createCareRepository(local.doc),
  };
  const outbox = createOutboxDrain({
    db,
    doc: local.doc,
    docDbName,
    tracker,
    targets: repositories,
    onRefused: (notice) => addNoticeBatch(notices, [notice]),
    onRecorded: () => push?.kick(),
  });
  // Loaded means with the writes the outbox held: what counts the unsent changes (sign-out,
  // Clear Local Data) or waits for the load sees them, and they leave the outbox only once stored.
  const loaded = local.loaded.then(() => outbox.run());
  void loaded.then(() => (docLoaded = true));
  // The first reconcile after them: before, it would put back the rows of the edits the
  // page showed (and take away its new records') until the outbox's changes were written.
  const projection = startProjection(local.doc, db, loaded);
  // [S19] Entries the server refused are told again at each start, until dismissed.
  void loaded.then(() => tellRefused(db, notices)).catch((error: unknown) => console.error('Could not read the refused entries', error));
  const countUnsent = async (): Promise<Unsent> => {
    await Promise.all([loaded, tracker.loaded]);
    const [photoCount, entries] = await Promise.all([photos.countWaiting(), countWaitingEntries(db)]);
    // A deletion alone moves no clock the records are counted by: still one record waiting.
    const records = tracker.isSaved() ? 0 : Math.max(1, countUnsavedRecords(local.doc, tracker));
    return { records: records + entries, photos: photoCount };
  };
  let replacing = false;
  /**
   * The server's document has another epoch (docs/sync-rules.md "Document epochs"): this
   * device's unsent changes are kept, as record-level writes, for the next document; this one
   * is deleted, and the data layer must start again (documentReplaced: the page reloads).
   * The changes are read first, synchronously, before anything of the server is applied.
   */
  const replaceDocument = async (named: string | null) => {
    if (replacing || destroyed) return;
    replacing = true;
    // From here on a write is refused (applyIntent): it would go into the document being deleted.
    const carried = unsentChanges(local.doc, tracker.acknowledgedClocks());
    stopConflicts();
    stopLedger();
    sync?.destroy();
    sync = null;
    uploads.stop();
    projection.stop();
    await outbox.stop();
    // First the changes, then the document: a stop in between loses nothing (applying them twice changes nothing).
    await keepCarryOver(db, carried, named, DOCUMENT_TRACKER_KEYS);
    sealWrites(db);
    await local.persistence.clearData();
    syncStatus.status.set({ documentReplaced: true, connection: 'disconnected' });
  };
  /**
   * Changes kept from a replaced document go into this one once it holds the server's
   * (after the first sync, so a field is written over the server's value, not before it),
   * and are forgotten once the server has acknowledged them.
   */
  const carryOverInto = async (connection: SyncConnection) => {
    const carried = await readCarryOver(db);
    if (carried.length === 0) return;
    await new Promise<void>((resolve) => {
      if (connection.provider.synced) return resolve();
      const onSync = (synced: boolean) => {
        if (!synced) return;
        connection.provider.off('sync', onSync);
        resolve();
      };
      connection.provider.on('sync', onSync);
    });
    if (sync !== connection || replacing || destroyed) return;
    applyCarriedChanges(local.doc, carried);
    await new Promise<void>((resolve) => {
      if (tracker.isSaved()) return resolve();
      const stop = tracker.onChange((saved) => {
        if (!saved) return;
        stop();
        resolve();
      });
    });
    if (!replacing && !destroyed) await forgetCarryOver(db);
  };
  /**
   * Intent `id`'s answer, once the document has loaded. Cleared: the document stays in
   * memory until the page is left, but a change made to it now would be stored nowhere and
   * sent nowhere, so the form says it failed. Replaced the same (a new epoch): its changes
   * were already read for the next document.
   */
  const applyIntent = async (id: string): Promise<unknown> => {
    loadNow();
    await loaded;
    if (isSealed(db) || replacing) throw clearedError('The change');
    return outbox.answer(id);
  };
  const stopUploadEvents = uploads.onEvent((event) => {
    if (event.kind === 'unauthorized') syncStatus.status.set({ sessionExpired: true });
  });

  return {
    ...local,
    loaded,
    db,
    projection,
    ...repositories,
    uploads,
    // The in-thread data layer (tests) writes as the page does: through the outbox.
    writes: outboxWrites(
      async (intent) => {
        if (replacing) throw clearedError(`${intent.repository}.${intent.method}`);
        await appendIntent(db, intent);
        return applyIntent(intent.id);
      },
      (id) => photos.queue(id),
    ),
    tracker,
    status: syncStatus.status,
    notices,
    waiting: waiting.count,
    countUnsaved: async () => countUnsavedRecords(local.doc, tracker),
    countUnsent,
    ...createQueries({ doc: local.doc, db, projection }),
    async clearDocument() {
      // Whatever still runs here (a reconcile reading its tables, a late acknowledgement)
      // must not write the ranch into the read model deleted next (clear-local-data.ts).
      sealWrites(db);
      stopConflicts();
      stopLedger();
      sync?.destroy();
      uploads.stop();
      // The document stays in memory until the page is left: a change it hears now, or the
      // reconcile a batch cut short by the clear would retry a second later, is not projected.
      projection.stop();
      // A drain appending to the document's database while it is deleted would make it again.
      await outbox.stop();
      await local.persistence.clearData();
    },
    applyIntent,
    drainOutbox: () => {
      loadNow();
      return loaded.then(() => outbox.run());
    },
    async connect(owner) {
      // Whether a photo may still be referred to is read from the document, so wait for it;
      // so does counting another user's unsent changes.
      await Promise.all([loaded, tracker.loaded]);
      const outcome = await claimData(db, owner, countUnsent);
      if (outcome.kind !== 'syncing' || connecting || destroyed) return outcome;
      connecting = true;
      // An empty document takes the server's epoch (docs/sync-rules.md "Document epochs").
      const held = (await local.persistence.readEpoch()) ?? (local.doc.store.clients.size === 0 ? null : await unrecordedEpoch(db));
      if (destroyed || replacing) return outcome;
      const epoch = {
        held,
        adopt: (named: string) =>
          void local.persistence.writeEpoch(named).catch((error: unknown) => console.error('Could not store the epoch', error)),
        // A failure (the disk full) leaves the document as it was, unsynced: the next start tries again.
        changed: (named: string | null) =>
          void replaceDocument(named).catch((error: unknown) => console.error('Could not set the old document aside', error)),
      };
      const connection = startSync(local.doc, tracker, syncStatus.status, notices, {
        serverUrl: options.syncUrl,
        isOnline,
        senderId: owner.userId,
        epoch,
        ...(options.WebSocketPolyfill ? { WebSocketPolyfill: options.WebSocketPolyfill } : {}),
      });
      sync = connection;
      stopConflicts = startConflictRefresh(local.doc, connection, db);
      const ledger = startLedgerSync(connection, db, tracker, {
        ...options.ledger,
        senderId: owner.userId,
        isOnline,
        onNotices: (told) => addNoticeBatch(notices, told),
        onSignedOut: (status) => {
          if (status === 401) syncStatus.status.set({ sessionExpired: true });
        },
      });
      push = ledger;
      stopLedger = () => {
        ledger.stop();
        if (push === ledger) push = null;
      };
      uploads.start(owner.userId);
      void carryOverInto(connection).catch((error: unknown) =>
        console.error('Could not apply the changes kept from the old document', error),
      );
      return outcome;
    },
    stopSync() {
      stopConflicts();
      stopLedger();
      sync?.destroy();
      sync = null;
      uploads.stop();
      connecting = false;
    },
    setOnline(next) {
      if (next === online) return;
      online = next;
      if (!next) {
        sync?.provider.disconnect();
        return;
      }
      // A socket that stayed "open" through an outage is usually dead: start a fresh one.
      sync?.provider.disconnect();
      sync?.reconnect();
      void uploads.kick();
      push?.kick();
    },
    dismissRefused: (intent) => dismissRefused(db, notices, intent),
    get docLoaded() {
      return docLoaded;
    },
    get sync() {
      return sync;
    },
    async destroy() {
      destroyed = true;
      stopConflicts();
      stopLedger();
      sync?.destroy();
      uploads.stop();
      stopUploadEvents();
      syncStatus.destroy();
      waiting.destroy();
      await outbox.stop();
      tracker.destroy();
      projection.stop();
      await local.persistence.destroy();
      local.doc.destroy();
      db.close();
    },
  };
}
