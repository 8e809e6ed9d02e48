import { openRanchDb, READ_DB_NAME, type RanchDb } from './db.ts';
import { startProjection, type Projection } from './projection.ts';
import { createBuyerRepository, type BuyerRepository } from './repositories/buyers.ts';
import { createHorseRepository, type HorseRepository } from './repositories/horses.ts';
import { createLookupRepository, type LookupRepository } from './repositories/lookups.ts';
import { createOwnerRepository, type OwnerRepository } from './repositories/owners.ts';
import { createPaymentRepository, type PaymentRepository } from './repositories/payments.ts';
import { createSaleRepository, type SaleRepository } from './repositories/sales.ts';
import { createPhotoOutbox, type PhotoOutbox } from './photos/photo-outbox.ts';
import { createPhotoUploader, type PhotoUploader } from './photos/photo-uploader.ts';
import { createSaveTracker, type SaveTracker } from './save-tracker.ts';
import type { Store } from './store.ts';
import { createSyncStatus, startSync, type SyncConnection, type SyncStatus } from './sync.ts';
import { DOC_DB_NAME, openLocalDoc, type LocalDoc } from './ydoc.ts';

export type RanchData = LocalDoc & {
  db: RanchDb;
  projection: Projection;
  horses: HorseRepository;
  lookups: LookupRepository;
  owners: OwnerRepository;
  buyers: BuyerRepository;
  sales: SaleRepository;
  /** Append-only: create is the only write. */
  payments: PaymentRepository;
  /** Photos taken here that have not reached the server (the outbox). */
  photos: PhotoOutbox;
  /** Sends the outbox; started by connect(). */
  uploads: PhotoUploader;
  tracker: SaveTracker;
  status: Store<SyncStatus>;
  /** Starts syncing with the server and sending photos (idempotent); call once the user is known. */
  connect(): SyncConnection;
  /** The live connection, once connect() was called. */
  readonly sync: SyncConnection | null;
  destroy(): Promise<void>;
};

export type RanchDataOptions = { docDbName?: string; readDbName?: string; syncUrl?: string };

/** Everything the data layer needs, wired as DESIGN.md "The way data flows" describes. */
export function openRanchData(options: RanchDataOptions = {}): RanchData {
  const local = openLocalDoc(options.docDbName ?? DOC_DB_NAME);
  const db = openRanchDb(options.readDbName ?? READ_DB_NAME);
  const projection = startProjection(local.doc, db, local.loaded);
  const tracker = createSaveTracker(local.doc, db);
  const syncStatus = createSyncStatus(tracker);
  let sync: SyncConnection | null = null;
  const horses = createHorseRepository(local.doc);
  const photos = createPhotoOutbox(db);
  const uploads = createPhotoUploader({ outbox: photos, horses });
  const stopUploadEvents = uploads.onEvent((event) => {
    if (event.kind === 'unauthorized') syncStatus.status.set({ sessionExpired: true });
  });

  return {
    ...local,
    db,
    projection,
    horses,
    photos,
    uploads,
    lookups: createLookupRepository(local.doc),
    owners: createOwnerRepository(local.doc),
    buyers: createBuyerRepository(local.doc),
    sales: createSaleRepository(local.doc),
    payments: createPaymentRepository(local.doc),
    tracker,
    status: syncStatus.status,
    connect() {
      if (!sync) {
        sync = startSync(local.doc, tracker, syncStatus.status, options.syncUrl);
        // Whether a photo may still be referred to is read from the document, so wait for it.
        void local.loaded.then(() => uploads.start());
      }
      return sync;
    },
    get sync() {
      return sync;
    },
    async destroy() {
      sync?.destroy();
      uploads.stop();
      stopUploadEvents();
      syncStatus.destroy();
      tracker.destroy();
      projection.stop();
      await local.persistence.destroy();
      local.doc.destroy();
      db.close();
    },
  };
}
