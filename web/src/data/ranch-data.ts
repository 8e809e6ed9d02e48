import { openRanchDb, READ_DB_NAME, type RanchDb } from './db.ts';
import { startProjection, type Projection } from './projection.ts';
import { createBuyerRepository } from './repositories/buyers.ts';
import { createHorseRepository } from './repositories/horses.ts';
import { createLookupRepository } from './repositories/lookups.ts';
import { createOwnerRepository } from './repositories/owners.ts';
import { createPaymentRepository } from './repositories/payments.ts';
import { createSaleRepository } from './repositories/sales.ts';
import { createPhotoOutbox } from './photos/photo-outbox.ts';
import { createPhotoUploader, type PhotoUploader } from './photos/photo-uploader.ts';
import { createSaveTracker, type SaveTracker } from './save-tracker.ts';
import { createNoticeStore, type NoticeStore } from './compensation-notices.ts';
import { localWrites, type RanchWrites, type WriteTargets } from './ranch-writes.ts';
import { countUnsavedRecords } from './unsaved-changes.ts';
import { createWaitingCount } from './waiting-count.ts';
import { collectionMap, entityShape } from '../../../shared/index.ts';
import type { Store } from './store.ts';
import { createSyncStatus, startSync, type SyncConnection, type SyncStatus } from './sync.ts';
import { DOC_DB_NAME, openLocalDoc, type LocalDoc } from './ydoc.ts';

/** The repositories (payments append-only; photos: the outbox of those not yet on the server) are WriteTargets. */
export type RanchData = LocalDoc &
  WriteTargets & {
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
    /** The sale a payment belongs to, from the document (the read model has no payment index); null if unknown. */
    paymentSaleId(paymentId: string): Promise<string | null>;
    /** Clear Local Data: stops syncing and sending, then empties the stored document. */
    clearDocument(): Promise<void>;
    /**
     * Starts syncing with the server and sending photos (idempotent); call once the user is
     * known. The socket opens once the local document has loaded, so its first sync step
     * asks the server only for what this device lacks, not for the whole ranch again.
     */
    connect(): void;
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
  /** When to start loading the document from IndexedDB (ydoc.ts); at once by default. */
  docLoadAfter?: Promise<unknown>;
};

/** Resolves when the read model is empty (a first visit: no rows to show first); else never. */
function nothingToShow(db: RanchDb): Promise<void> {
  const never = new Promise<void>(() => {});
  return Promise.all([db.horses.count(), db.sales.count()]).then(
    ([horses, sales]) => (horses + sales === 0 ? undefined : never),
    () => never,
  );
}

/** Everything the data layer needs, wired as docs/architecture.md "One write path" describes ([O2]). */
export function openRanchData(options: RanchDataOptions = {}): RanchData {
  const db = openRanchDb(options.readDbName ?? READ_DB_NAME);
  const local = openLocalDoc(
    options.docDbName ?? DOC_DB_NAME,
    options.docLoadAfter && Promise.race([options.docLoadAfter, nothingToShow(db)]),
  );
  let docLoaded = false;
  let destroyed = false;
  void local.loaded.then(() => (docLoaded = true));
  const projection = startProjection(local.doc, db, local.loaded);
  const tracker = createSaveTracker(local.doc, db);
  const syncStatus = createSyncStatus(tracker);
  const notices = createNoticeStore();
  const waiting = createWaitingCount(local.doc, tracker);
  let sync: SyncConnection | null = null;
  let connecting = false;
  const horses = createHorseRepository(local.doc);
  const photos = createPhotoOutbox(db);
  const uploads = createPhotoUploader({ outbox: photos, horses });
  const repositories = {
    horses,
    photos,
    lookups: createLookupRepository(local.doc),
    owners: createOwnerRepository(local.doc),
    buyers: createBuyerRepository(local.doc),
    sales: createSaleRepository(local.doc),
    payments: createPaymentRepository(local.doc),
  };
  const stopUploadEvents = uploads.onEvent((event) => {
    if (event.kind === 'unauthorized') syncStatus.status.set({ sessionExpired: true });
  });

  return {
    ...local,
    db,
    projection,
    ...repositories,
    uploads,
    writes: localWrites(repositories),
    tracker,
    status: syncStatus.status,
    notices,
    waiting: waiting.count,
    countUnsaved: async () => countUnsavedRecords(local.doc, tracker),
    async paymentSaleId(paymentId) {
      const shape = entityShape('payments', paymentId, collectionMap(local.doc, 'payments').get(paymentId));
      const saleId = shape.kind === 'entity' ? shape.fields.saleId : undefined;
      return typeof saleId === 'string' && saleId !== '' ? saleId : null;
    },
    async clearDocument() {
      sync?.destroy();
      uploads.stop();
      await local.persistence.clearData();
    },
    connect() {
      if (connecting) return;
      connecting = true;
      // Whether a photo may still be referred to is read from the document, so wait for it.
      void local.loaded.then(() => {
        if (destroyed) return;
        sync = startSync(local.doc, tracker, syncStatus.status, notices, options.syncUrl);
        uploads.start();
      });
    },
    get docLoaded() {
      return docLoaded;
    },
    get sync() {
      return sync;
    },
    async destroy() {
      destroyed = true;
      sync?.destroy();
      uploads.stop();
      stopUploadEvents();
      syncStatus.destroy();
      waiting.destroy();
      tracker.destroy();
      projection.stop();
      await local.persistence.destroy();
      local.doc.destroy();
      db.close();
    },
  };
}
