import * as Y from 'yjs';
import { DOC_NAME, observeEntities, type EntityChanges } from '../../../shared/index.ts';
import { historySteps } from '../../src/sync/history.ts';
import { appendUpdates } from '../../src/sync/persistence.ts';
import { durableDocument } from './ranch-state.ts';
import type { TestServer } from './server.ts';

/**
 * Appends `write` — sales, payments or corrections written into the document, as a server of
 * layout 2 stored them (docs/sync-rules.md §6) — to the stored document, projected and in the
 * change history under `userId` (null: the server's own). Resolves with the update, which a
 * device that synced with the server of layout 2 holds.
 */
export async function appendLayout2(server: TestServer, write: (doc: Y.Doc) => void, userId: string | null = null): Promise<Uint8Array> {
  const { sql } = server.db;
  const doc = await durableDocument(sql);
  const before = Y.encodeStateVector(doc);
  const changes: EntityChanges = new Map();
  const stop = observeEntities(doc, (changed) => {
    for (const [collection, ids] of changed) changes.set(collection, new Set([...(changes.get(collection) ?? []), ...ids]));
  });
  doc.transact(() => write(doc));
  stop();
  const update = Y.encodeStateAsUpdate(doc, before);
  const history = historySteps(doc, { changes, edits: new Map() }, userId);
  const [row] = await sql<{ last_seq: string }[]>`select last_seq from docs where name = ${DOC_NAME}`;
  const seq = await appendUpdates(sql, DOC_NAME, BigInt(row?.last_seq ?? 0), [{ update, userId }], doc, changes, history);
  if (seq === null) throw new Error('The stored document moved while it was written');
  doc.destroy();
  return update;
}

/**
 * A stored document of layout 2: appendLayout2, then the server restarts on the same database
 * and loads it, moving its sales, payments and corrections to the ledger. Resolves with the
 * restarted server and the update.
 */
export async function storedInLayout2(
  server: TestServer,
  write: (doc: Y.Doc) => void,
  userId: string | null = null,
): Promise<{ server: TestServer; update: Uint8Array }> {
  const update = await appendLayout2(server, write, userId);
  return { server: await server.restart(), update };
}
