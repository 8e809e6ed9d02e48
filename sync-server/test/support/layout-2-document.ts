import * as Y from 'yjs';
import { DOC_NAME, observeEntities, type EntityChanges } from '../../../shared/index.ts';
import { appendUpdates } from '../../src/sync/persistence.ts';
import { durableDocument } from './ranch-state.ts';
import type { TestServer } from './server.ts';

/**
 * A stored document of layout 2 (docs/sync-rules.md §6): `write` — sales, payments or
 * corrections written into the document, as a server of layout 2 stored them — is appended to
 * the stored document and projected, then the server restarts on the same database and loads
 * it (moving them to the ledger). Resolves with the restarted server and the update, which a
 * device that synced with the server of layout 2 holds.
 */
export async function storedInLayout2(
  server: TestServer,
  write: (doc: Y.Doc) => void,
): Promise<{ server: TestServer; update: Uint8Array }> {
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
  const [row] = await sql<{ last_seq: string }[]>`select last_seq from docs where name = ${DOC_NAME}`;
  const seq = await appendUpdates(sql, DOC_NAME, BigInt(row?.last_seq ?? 0), [{ update, userId: null }], doc, changes);
  if (seq === null) throw new Error('The stored document moved while it was written');
  doc.destroy();
  return { server: await server.restart(), update };
}
