import { openRanchDb, READ_DB_NAME, type RanchDb } from './db.ts';
import { startProjection, type Projection } from './projection.ts';
import { createBuyerRepository, type BuyerRepository } from './repositories/buyers.ts';
import { createHorseRepository, type HorseRepository } from './repositories/horses.ts';
import { createLookupRepository, type LookupRepository } from './repositories/lookups.ts';
import { createOwnerRepository, type OwnerRepository } from './repositories/owners.ts';
import { createPaymentRepository, type PaymentRepository } from './repositories/payments.ts';
import { createSaleRepository, type SaleRepository } from './repositories/sales.ts';
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
  tracker: SaveTracker;
  status: Store<SyncStatus>;
  /** Starts syncing with the server (idempotent); call once the user is known. */
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

  return {
    ...local,
    db,
    projection,
    horses: createHorseRepository(local.doc),
    lookups: createLookupRepository(local.doc),
    owners: createOwnerRepository(local.doc),
    buyers: createBuyerRepository(local.doc),
    sales: createSaleRepository(local.doc),
    payments: createPaymentRepository(local.doc),
    tracker,
    status: syncStatus.status,
    connect() {
      sync ??= startSync(local.doc, tracker, syncStatus.status, options.syncUrl);
      return sync;
    },
    get sync() {
      return sync;
    },
    async destroy() {
      sync?.destroy();
      syncStatus.destroy();
      tracker.destroy();
      projection.stop();
      await local.persistence.destroy();
      local.doc.destroy();
      db.close();
    },
  };
}
