import * as Y from 'yjs';
import type { RanchDb } from './db.ts';
import type { PhotoOutbox } from './photos/photo-outbox.ts';
import { projectEntities } from './projection.ts';
import { applyWrite, type RanchWrites, writableBeforeLoad, writesThrough, type WriteTargets } from './ranch-writes.ts';
import { createBuyerRepository } from './repositories/buyers.ts';
import { createHorseRepository } from './repositories/horses.ts';
import { createLookupRepository } from './repositories/lookups.ts';
import { createOwnerRepository } from './repositories/owners.ts';
import { noteStagedClient } from './save-tracker.ts';
import { appendStoredUpdate } from './stored-update.ts';
import { DOC_DB_NAME } from './ydoc.ts';

export type StagingOptions = {
  /** The page's read model: the new record's row is written here at once. */
  db: RanchDb;
  /** The page's outbox on that read model (photos queued before the load). */
  photos: Pick<PhotoOutbox, 'queue'>;
  /** y-indexeddb's database of the document; DOC_DB_NAME by default. */
  docDbName?: string;
  /** Whether the host has said its document is loaded; from then on every write goes to it. */
  isLoaded(): boolean;
  /** Hands a staged update to the host (not awaited: the host answers once it is free). */
  applyStaged(update: Uint8Array): void;
};

/**
 * RanchWrites that do the creates of WRITES_BEFORE_LOAD in the page while the data worker
 * is still loading the stored document (docs/web.md "Writable sooner"): the worker answers
 * nothing while it applies the document, which takes seconds on a phone. Everything else,
 * and everything once the host has loaded, goes to `remote`.
 */
export function stageCreatesBeforeLoad(remote: RanchWrites, options: StagingOptions): RanchWrites {
  const docDbName = options.docDbName ?? DOC_DB_NAME;
  return writesThrough(async (repository, method, args) => {
    if (options.isLoaded() || !writableBeforeLoad(repository, method)) {
      const target = remote[repository] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      return target[method]!(...args);
    }
    if (repository === 'photos') return queuePhoto(remote, options, String(args[0]));
    return stageCreate(options, docDbName, repository, method, args);
  });
}

/**
 * Runs the create on a document of its own (a fresh client id, so it never collides with
 * the host's), with the repositories' own code: the same validation and layout as in the
 * host. The document's update is stored as y-indexeddb would store it, its row is written,
 * and the host is told; the next load applies the stored copy in any case.
 */
async function stageCreate(
  options: StagingOptions,
  docDbName: string,
  repository: string,
  method: string,
  args: unknown[],
): Promise<unknown> {
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
    const update = Y.encodeStateAsUpdate(staging);
    // The id is noted for the next start's save tracker should the host never hear of this
    // create; a note without a stored update is harmless (nothing of that id to count).
    const noted = noteStagedClient(options.db, staging.clientID).catch((error: unknown) =>
      console.error('Could not note a staged create for the save tracker', error),
    );
    await Promise.all([appendStoredUpdate(docDbName, update), noted]);
    options.applyStaged(update);
    // The record is stored: a row that cannot be written now is written by the host's projection.
    try {
      if (!(await projectEntities(staging, options.db))) console.warn('The read model refused a new record; the data worker will note it');
    } catch (error) {
      console.error('Could not show the new record yet; it shows once the data worker has it', error);
    }
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
