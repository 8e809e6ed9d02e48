import * as Y from 'yjs';
import type { RanchDb } from './db.ts';
import type { PhotoOutbox } from './photos/photo-outbox.ts';
import { projectEntities } from './projection.ts';
import { applyWrite, callWrite, type RanchWrites, writableBeforeLoad, writesThrough, type WriteTargets } from './ranch-writes.ts';
import { createBuyerRepository } from './repositories/buyers.ts';
import { createHorseRepository } from './repositories/horses.ts';
import { createLookupRepository } from './repositories/lookups.ts';
import { createOwnerRepository } from './repositories/owners.ts';
import { stageUpdate } from './staged-updates.ts';

export type StagingOptions = {
  /** The page's read model: the staged update is stored in it and the new record's row written at once. */
  db: RanchDb;
  /** The page's outbox on that read model (photos queued before the load). */
  photos: Pick<PhotoOutbox, 'queue'>;
  /** Whether the host has said its document is loaded; from then on every write goes to it. */
  isLoaded(): boolean;
  /** Tells the host something was staged (not awaited: the host drains the table once it has loaded). */
  drainStaged(): void;
};

/**
 * RanchWrites that do the creates of WRITES_BEFORE_LOAD in the page while the data worker
 * is still loading the stored document (docs/web.md "Writable sooner"): the worker answers
 * nothing while it applies the document, which takes seconds on a phone. Everything else,
 * and everything once the host has loaded, goes to `remote`.
 */
export function stageCreatesBeforeLoad(remote: RanchWrites, options: StagingOptions): RanchWrites {
  return writesThrough(async (repository, method, args) => {
    if (options.isLoaded() || !writableBeforeLoad(repository, method)) return callWrite(remote, repository, method, args);
    if (repository === 'photos') return queuePhoto(remote, options, String(args[0]));
    return stageCreate(options, repository, method, args);
  });
}

/**
 * Runs the create on a document of its own (a fresh client id, so it never collides with
 * the host's), with the repositories' own code: the same validation and layout as in the
 * host. The document's update is stored in the read database's `stagedUpdates` table
 * (staged-updates.ts), the host is told, and the create is answered; its row is written
 * meanwhile. The host applies the stored copy at its next drain or load in any case.
 */
async function stageCreate(options: StagingOptions, repository: string, method: string, args: unknown[]): Promise<unknown> {
  const staging = new Y.Doc();
  try {
    // Only the creates of WRITES_BEFORE_LOAD reach here; they touch these repositories only.
    const targets = {
      horses: createHorseRepository(staging),
      lookups: createLookupRepository(staging),
      owners: createOwnerRepository(staging),
      buyers: createBuyerRepository(staging),
    } as Partial<WriteTargets> as WriteTargets;
    const id = await applyWrite(targets, repository, method, args);
    // On the device from here. It counts as unsent from the moment a host applies it (the
    // drain adopts its client id, and notes it as it deletes the row).
    await stageUpdate(options.db, Y.encodeStateAsUpdate(staging));
    options.drainStaged();
    // Answered once stored, not once shown: the row's write waits in IndexedDB behind the
    // data worker's load as the stored update did (docs/web.md "Writable sooner"). Its
    // transaction is made in this call, and IndexedDB runs transactions on the same table in
    // the order they were made, so a read made after the answer still sees the row. The rows
    // are taken from the document now, before it is destroyed; one that cannot be written
    // now is written by the host's projection.
    projectEntities(staging, options.db).then(
      (shown) => shown || console.warn('The read model refused a new record; the data worker will note it'),
      (error: unknown) => console.error('Could not show the new record yet; it shows once the data worker has it', error),
    );
    return id;
  } finally {
    staging.destroy();
  }
}

/** Marks the photo queued in the outbox here; the host's uploader hears of it when it is free. */
async function queuePhoto(remote: RanchWrites, options: StagingOptions, id: string): Promise<void> {
  await options.photos.queue(id);
  void remote.photos.queue(id).catch((error: unknown) => console.error('The data worker did not take the queued photo', error));
}
