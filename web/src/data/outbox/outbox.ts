import { addAtOnce } from '../add-at-once.ts';
import type { RanchDb } from '../db.ts';
import { clearedError, isSealed } from '../sealed-writes.ts';
import { type RanchWrites, writesThrough } from '../ranch-writes.ts';
import type { HostControls } from '../host/host-api.ts';
import type { Async } from '../ranch-writes.ts';
import { answerOf, makeIntent, type WriteIntent } from './intent.ts';

/**
 * Appends an intent to the device's outbox; resolves once committed: from then on the write
 * is on the device, whatever happens to the page or the data host. Refused once the device
 * was cleared (sealed-writes.ts): addAtOnce writes past Dexie's middleware, and a write made
 * after a sign-out must not wait in the emptied database for the next person's start.
 */
export async function appendIntent(db: RanchDb, intent: WriteIntent): Promise<void> {
  if (isSealed(db)) throw clearedError(`${intent.repository}.${intent.method}`);
  await addAtOnce(db, db.outbox, intent);
}

/**
 * RanchWrites through the outbox (docs/architecture.md "The device's write path"): each call
 * becomes an intent, `send` appends it and has the data host apply it, and the call answers
 * as the repository would (a create with the id minted in the intent). Queueing a photo is
 * the photo outbox's own (`queuePhoto`).
 */
export function outboxWrites(send: (intent: WriteIntent) => Promise<unknown>, queuePhoto: (id: string) => Promise<void>): RanchWrites {
  return writesThrough(async (repository, method, args) => {
    if (repository === 'photos') return queuePhoto(String(args[0]));
    const intent = makeIntent(repository, method, args);
    return answerOf(intent, await send(intent));
  });
}

/** RanchWrites of a page whose data host is elsewhere (the data worker): appended to `db`'s outbox here, applied there. */
export function hostWrites(db: RanchDb, host: Pick<Async<HostControls>, 'applyIntent' | 'queuePhoto'>): RanchWrites {
  return outboxWrites(
    async (intent) => {
      await appendIntent(db, intent);
      return host.applyIntent(intent.id);
    },
    (id) => host.queuePhoto(id),
  );
}
