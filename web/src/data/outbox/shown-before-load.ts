import * as Y from 'yjs';
import type { RanchDb } from '../db.ts';
import { answerOf, callOf, makeIntent } from './intent.ts';
import { appendIntent } from './outbox.ts';
import type { PhotoOutbox } from '../photos/photo-outbox.ts';
import { projectEntities } from '../projection.ts';
import { writeEntity, type EntityFields } from '../../../../shared/index.ts';
import { callWrite, isShownEdit, type RanchWrites, runWrite, shownBeforeLoad, writesThrough, type WriteTargets } from '../ranch-writes.ts';
import { createBuyerRepository } from '../repositories/buyers.ts';
import { createHorseRepository } from '../repositories/horses.ts';
import { createLookupRepository } from '../repositories/lookups.ts';
import { createOwnerRepository } from '../repositories/owners.ts';

export type BeforeLoadOptions = {
  /** The page's read model: the changed row is written in it at once. Its `outbox` is where the write goes. */
  db: RanchDb;
  /** The page's outbox on that read model (photos queued before the load). */
  photos: Pick<PhotoOutbox, 'queue'>;
  /** Whether the host has said its document is loaded; from then on every write is answered by it. */
  isLoaded(): boolean;
  /** Tells the host an intent was appended (not awaited: the host drains the outbox once it has loaded). */
  drainOutbox(): void;
};

/**
 * RanchWrites that answer the creates and edits of `shownBeforeLoad` in the page while the
 * data worker is still loading the stored document (docs/architecture.md "The device's write
 * path"): the worker answers nothing while it applies the document, which takes seconds on a
 * phone. The write goes to the outbox as every write does; the page checks it with the
 * repositories' own code and shows its row. Everything else, and everything once the host
 * has loaded, goes to `remote`.
 */
export function showWritesBeforeLoad(remote: RanchWrites, options: BeforeLoadOptions): RanchWrites {
  return writesThrough(async (repository, method, args) => {
    if (options.isLoaded() || !shownBeforeLoad(repository, method)) return callWrite(remote, repository, method, args);
    if (repository === 'photos') return queuePhoto(remote, options, String(args[0]));
    return showBeforeLoad(remote, options, repository, method, args);
  });
}

/** The repositories a page's staging document is written through (the creates and edits shown before the load touch these only). */
function stagingTargets(staging: Y.Doc): WriteTargets {
  return {
    horses: createHorseRepository(staging),
    lookups: createLookupRepository(staging),
    owners: createOwnerRepository(staging),
    buyers: createBuyerRepository(staging),
  } as Partial<WriteTargets> as WriteTargets;
}

/**
 * Checks the write on a document of its own (an edit's holding the record as the read model
 * shows it), with the repositories' own code and the ids its intent makes: a refused write
 * rejects and nothing is stored. Then appends the intent, tells the host and answers; the
 * changed rows are written meanwhile. The host applies the intent once its document has
 * loaded, and says so if the document refuses it then (the record was deleted on another
 * device, say). An edit of a record the read model does not show (never projected, or gone)
 * is left to the host: it is answered after its load.
 */
async function showBeforeLoad(
  remote: RanchWrites,
  options: BeforeLoadOptions,
  repository: Exclude<keyof RanchWrites, 'photos'>,
  method: string,
  args: unknown[],
): Promise<unknown> {
  const staging = new Y.Doc();
  try {
    if (isShownEdit(repository, method)) {
      const id = args[0];
      const row = typeof id === 'string' ? await options.db[repository].get(id) : undefined;
      if (!row) return callWrite(remote, repository, method, args);
      const fields = Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined)) as EntityFields;
      writeEntity(staging, repository, row.id, fields);
    }
    const intent = makeIntent(repository, method, args, true);
    const answer = runWrite(stagingTargets(staging), repository, method, callOf(intent));
    await appendIntent(options.db, intent);
    options.drainOutbox();
    // Answered once stored, not once shown.
    showRows(staging, options.db);
    return answerOf(intent, answer);
  } finally {
    staging.destroy();
  }
}

/**
 * Writes the rows of a staging document's records with the projection's own code, not
 * awaited: the row's write waits in IndexedDB behind the data worker's load as the staged
 * row did (docs/web.md "The device outbox"). Its transaction is made in this call, and
 * IndexedDB runs transactions on the same table in the order they were made, so a read made
 * after the answer still sees the row. The rows are taken from the document now, before it
 * is destroyed; one that cannot be written now is written by the host's projection.
 */
function showRows(staging: Y.Doc, db: RanchDb): void {
  projectEntities(staging, db).then(
    (shown) => shown || console.warn('The read model refused a staged record; the data worker will note it'),
    (error: unknown) => console.error('Could not show the staged change yet; it shows once the data worker has it', error),
  );
}

/** Marks the photo queued in the outbox here; the host's uploader hears of it when it is free. */
async function queuePhoto(remote: RanchWrites, options: BeforeLoadOptions, id: string): Promise<void> {
  await options.photos.queue(id);
  void remote.photos.queue(id).catch((error: unknown) => console.error('The data worker did not take the queued photo', error));
}
