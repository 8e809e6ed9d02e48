import type { NoticeStore } from './compensation-notices.ts';
import type { ConnectOutcome, DataOwner, Unsent } from './data-owner.ts';
import type { RanchDb } from './db.ts';
import type { PhotoOutbox } from './photos/photo-outbox.ts';
import type { PhotoUploader } from './photos/photo-uploader.ts';
import type { RanchWrites } from './ranch-writes.ts';
import type { Store } from './store.ts';
import type { HostQueries } from './host/queries.ts';
import type { SyncStatus } from './sync.ts';

/**
 * What screens use of the data layer (docs/web.md "The data layer in a worker"): the read
 * model, the writes, and the state the document's side reports. Both the in-thread data
 * layer (ranch-data.ts) and the page's client of the data worker (worker-client.ts) are one.
 */
export type PageData = HostQueries & {
  db: RanchDb;
  writes: RanchWrites;
  /** Photo drafts are stored by the page (compressing needs its canvas); queueing goes through `writes`. */
  photos: Pick<PhotoOutbox, 'addDraft' | 'discardDraft' | 'get' | 'countWaiting'>;
  uploads: Pick<PhotoUploader, 'onEvent'>;
  status: Store<SyncStatus>;
  notices: NoticeStore;
  waiting: Store<{ records: number }>;
  projection: { invalidCount: Store<{ invalid: number }>; idle(): Promise<void> };
  /** Resolves once the stored document has loaded (writes are offered from then on). */
  loaded: Promise<void>;
  readonly docLoaded: boolean;
  /** The user is known: start syncing and sending photos, unless the data is another user's ([A12]). */
  connect(owner: DataOwner): Promise<ConnectOutcome>;
  countUnsaved(): Promise<number>;
  /** What the server has not acknowledged, once the document has loaded (sign-out, [A11] [A13]). */
  countUnsent(): Promise<Unsent>;
  /** The session ended ([A13]): no socket and no upload any more. */
  stopSync(): void;
  /** [S19] The person dismissed the notice of a ledger entry the server refused (its `intent`): the device forgets it. */
  dismissRefused(intent: number): Promise<void>;
  clearDocument(): Promise<void>;
};
