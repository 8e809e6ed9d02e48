import type * as Y from 'yjs';
import type { Sql, Tx } from '../db/client.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { writeThroughDoc } from '../api/doc-writes.ts';
import { collectionMap, getEntity, markHorseSold, restoreHorseStatusOf, type EntityFields } from '../../../shared/index.ts';
import type { DocumentFacts } from './rules.ts';
import {
  appendEntries,
  deletedFromDocument,
  effectsDone,
  type Appended,
  type DocumentEffect,
  type NamedInDocument,
  type Submission,
} from './store.ts';

/**
 * What the document says of the horses and buyers entries name: present, deleted meanwhile
 * (a tombstone of the projection), or never known.
 */
export async function documentFacts(tx: Tx, doc: Y.Doc, named: NamedInDocument): Promise<DocumentFacts> {
  const absent = (collection: 'horses' | 'buyers', ids: string[]) => ids.filter((id) => !collectionMap(doc, collection).has(id));
  const deleted = {
    horses: await deletedFromDocument(tx, 'horses', absent('horses', named.horses)),
    buyers: await deletedFromDocument(tx, 'buyers', absent('buyers', named.buyers)),
  };
  return {
    presence: (collection, id) =>
      collectionMap(doc, collection).has(id) ? 'present' : deleted[collection].has(id) ? 'deleted' : 'unknown',
  };
}

/** [S18] [S17] The horse statuses the entries' document effects set, in the caller's transaction. */
function applyEffects(doc: Y.Doc, effects: DocumentEffect[]): void {
  for (const { sold, unsold } of effects) {
    if (sold && getEntity(doc, 'horses', sold)) markHorseSold(doc, sold);
    if (unsold) restoreHorseStatusOf(doc, unsold as EntityFields);
  }
}

/**
 * Records `submissions` pushed by `userId` (docs/sync-rules.md "Ledger"). In the document
 * host's queue, so that no document change lands between reading the document and following it:
 * 1. the ledger's transaction commits the entries (store.ts), the host's index of what ledger
 *    sales name learns the new sales (sale-index.ts), and every device is told the new head;
 * 2. the horse statuses their sales and cancellations set are one server-made change of the
 *    document, committed like any REST write (log, projection, history, broadcast);
 * 3. the entries are marked as having reached the document.
 * A failure after 1 leaves the entries recorded with their effects pending: the device, told
 * 503, pushes them again, and the duplicate brings the effects (step 2) once more.
 * `submissions` may be made in the queue from the document as it is then (a REST write, api/ledger-writes.ts).
 */
export async function pushEntries(
  sql: Sql,
  registry: DocumentRegistry,
  userId: string,
  submissions: Submission[] | ((doc: Y.Doc) => Promise<Submission[]>),
): Promise<Appended> {
  let appended: Appended | undefined;
  await writeThroughDoc(
    registry,
    userId,
    (doc) => applyEffects(doc, appended?.effects ?? []),
    async () => {
      const host = await registry.get();
      const pushed = typeof submissions === 'function' ? await submissions(host.doc) : submissions;
      appended = await appendEntries(sql, pushed, (tx, named) => documentFacts(tx, host.doc, named));
      // In the queue: a deletion judged after this push sees its sales (sale-index.ts).
      const stored = new Set(appended.results.filter((result) => result.outcome !== 'refused').map((result) => result.id));
      for (const { entry } of pushed)
        if (entry.collection === 'sales' && stored.has(entry.id)) host.ledgerSales?.learn(entry.id, entry.record);
      if (appended.recorded > 0) registry.announceLedger(appended.head);
    },
  );
  if (!appended) throw new Error('The ledger append did not run');
  await effectsDone(
    sql,
    appended.effects.map((effect) => effect.id),
  );
  return appended;
}
