import * as Y from 'yjs';
import type { RanchDb } from './db.ts';
import type { PhotoOutbox } from './photos/photo-outbox.ts';
import { projectEntities } from './projection.ts';
import { writeEntity, type EntityFields } from '../../../shared/index.ts';
import {
  applyWrite,
  callWrite,
  isStagedEdit,
  type RanchWrites,
  stagedBeforeLoad,
  writesThrough,
  type WriteTargets,
} from './ranch-writes.ts';
import { createBuyerRepository } from './repositories/buyers.ts';
import { createHorseRepository } from './repositories/horses.ts';
import { createLookupRepository } from './repositories/lookups.ts';
import { createOwnerRepository } from './repositories/owners.ts';
import { stageCall, type StagedCall } from './staged-calls.ts';
import { stageUpdate } from './staged-updates.ts';

export type StagingOptions = {
  /** The page's read model: a staged create or edit is stored in it, and its row written at once. */
  db: RanchDb;
  /** The page's outbox on that read model (photos queued before the load). */
  photos: Pick<PhotoOutbox, 'queue'>;
  /** Whether the host has said its document is loaded; from then on every write goes to it. */
  isLoaded(): boolean;
  /** Tells the host something was staged (not awaited: the host drains the table once it has loaded). */
  drainStaged(): void;
};

/**
 * RanchWrites that do the creates of WRITES_BEFORE_LOAD and the edits of
 * EDITS_STAGED_BEFORE_LOAD in the page while the data worker is still loading the stored
 * document (docs/web.md "Writable sooner"): the worker answers nothing while it applies the
 * document, which takes seconds on a phone. Everything else, and everything once the host
 * has loaded, goes to `remote`.
 */
export function stageWritesBeforeLoad(remote: RanchWrites, options: StagingOptions): RanchWrites {
  return writesThrough(async (repository, method, args) => {
    if (options.isLoaded() || !stagedBeforeLoad(repository, method)) return callWrite(remote, repository, method, args);
    if (repository === 'photos') return queuePhoto(remote, options, String(args[0]));
    if (isStagedEdit(repository, method)) return stageEdit(remote, options, { repository, method, args });
    return stageCreate(options, repository, method, args);
  });
}

/** The repositories a page's staging document is written through (the staged creates and edits touch these only). */
function stagingTargets(staging: Y.Doc): WriteTargets {
  return {
    horses: createHorseRepository(staging),
    lookups: createLookupRepository(staging),
    owners: createOwnerRepository(staging),
    buyers: createBuyerRepository(staging),
  } as Partial<WriteTargets> as WriteTargets;
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
    const id = await applyWrite(stagingTargets(staging), repository, method, args);
    // On the device from here. It counts as unsent from the moment a host applies it (the
    // drain adopts its client id, and notes it as it deletes the row).
    await stageUpdate(options.db, Y.encodeStateAsUpdate(staging));
    options.drainStaged();
    // Answered once stored, not once shown (showRows).
    showRows(staging, options.db);
    return id;
  } finally {
    staging.destroy();
  }
}

/**
 * Checks the edit on a document of its own holding the record as the read model shows it,
 * with the repositories' own code (a refused edit rejects and nothing is stored), stores the
 * call (staged-calls.ts), tells the host and answers; the changed row is written meanwhile,
 * as a create's is. The host makes the call once its document has loaded, and says so if
 * the document refuses it then (the record was deleted on another device, say). A record
 * the read model does not show (never projected, or gone) is left to the host: the call
 * waits for its load, as every edit did.
 */
async function stageEdit(remote: RanchWrites, options: StagingOptions, call: StagedCall): Promise<unknown> {
  const id = call.args[0];
  const row = typeof id === 'string' ? await options.db[call.repository].get(id) : undefined;
  if (!row) return callWrite(remote, call.repository, call.method, call.args);
  const staging = new Y.Doc();
  try {
    const fields = Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined)) as EntityFields;
    writeEntity(staging, call.repository, row.id, fields);
    const answer = await applyWrite(stagingTargets(staging), call.repository, call.method, call.args);
    await stageCall(options.db, call);
    options.drainStaged();
    showRows(staging, options.db);
    return answer;
  } finally {
    staging.destroy();
  }
}

/**
 * Writes the rows of a staging document's records with the projection's own code, not
 * awaited: the row's write waits in IndexedDB behind the data worker's load as the staged
 * row did (docs/web.md "Writable sooner"). Its transaction is made in this call, and
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
async function queuePhoto(remote: RanchWrites, options: StagingOptions, id: string): Promise<void> {
  await options.photos.queue(id);
  void remote.photos.queue(id).catch((error: unknown) => console.error('The data worker did not take the queued photo', error));
}
