import type * as Y from 'yjs';
import type { Sql } from '../db/client.ts';
import {
  COLLECTION_NOUN,
  collectionMap,
  deleteEntity,
  getEntity,
  markHorseSold,
  MOVED_TO_LEDGER,
  restoreHorseStatusOf,
  type Collection,
  type CompensationNotice,
  type EntityChanges,
  type EntityFields,
} from '../../../shared/index.ts';
import { entriesOfDocument, moveDocumentToLedger, type Moved } from './from-document.ts';
import { documentFacts } from './push.ts';
import type { LedgerSaleIndex } from './sale-index.ts';
import { appendEntries, effectsDone, ledgerHead, type Appended, type DocumentEffect } from './store.ts';

/**
 * Layout 3 (docs/sync-rules.md §6): sales, payments and corrections live only in the ledger.
 * What the document host does with them when it finds them in the document — a device with
 * the old app, a stock client, a device back after months offline, or a stored layout-2
 * document.
 */
export type OldLayout = {
  /**
   * Records the sales, payments and corrections `changes` touched in `doc` as ledger entries
   * pushed by `userId` (committed when this resolves), and says which horse statuses their
   * sales and cancellations set ([S18], [S17]) and, for the sender, which of its records the
   * ledger did not take (no valid record, or refused) and why ([O7]).
   */
  record(doc: Y.Doc, changes: EntityChanges, userId: string | null): Promise<{ effects: DocumentEffect[]; notices: CompensationNotice[] }>;
  /** Moves a stored document's sales, payments and corrections into the ledger (at load). */
  move(doc: Y.Doc): Promise<Moved>;
  /** The document effects of `ids` reached the document (its commit is durable). */
  done(ids: string[]): Promise<void>;
};

/** [O7] The notice to the sender of an old-layout record the ledger did not take: it is removed from the document. */
const notTaken = (collection: Collection, id: string, reason: string): CompensationNotice => ({
  collection,
  id,
  action: 'removed',
  fields: {},
  reason,
});

/** Of `changes`, the ids of the collections that moved to the ledger (null: none). */
export function movedIn(changes: EntityChanges): EntityChanges | null {
  const moved: EntityChanges = new Map();
  for (const collection of MOVED_TO_LEDGER) {
    const ids = changes.get(collection);
    if (ids && ids.size > 0) moved.set(collection, ids);
  }
  return moved.size > 0 ? moved : null;
}

/** `changes` without the collections that moved to the ledger: the document's rules, projection and history never see them. */
export function withoutMoved(changes: EntityChanges): EntityChanges {
  return new Map([...changes].filter(([collection]) => !(MOVED_TO_LEDGER as readonly string[]).includes(collection)));
}

/**
 * In the caller's document transaction: the horse statuses the entries set, and the moved
 * records removed from the document (recorded, duplicates and refused alike: an entry the
 * ledger refuses is one the document's rules would have put back or removed too).
 */
export function removeMoved(doc: Y.Doc, moved: EntityChanges, effects: DocumentEffect[]): void {
  for (const { sold, unsold } of effects) {
    if (sold && getEntity(doc, 'horses', sold)) markHorseSold(doc, sold);
    if (unsold) restoreHorseStatusOf(doc, unsold as EntityFields);
  }
  for (const [collection, ids] of moved) for (const id of ids) deleteEntity(doc, collection, id);
}

/** Every moved record the document holds, for the switch at load. */
export function movedInDocument(doc: Y.Doc): EntityChanges | null {
  const all: EntityChanges = new Map();
  for (const collection of MOVED_TO_LEDGER) all.set(collection, new Set(collectionMap(doc, collection).keys()));
  return movedIn(all);
}

export function oldLayout(sql: Sql, ledgerSales: LedgerSaleIndex | undefined, announce: (head: bigint) => void): OldLayout {
  const learn = (appended: Appended, entries: { id: string; collection: string; record: Record<string, unknown> }[]) => {
    const stored = new Set(appended.results.filter((result) => result.outcome !== 'refused').map((result) => result.id));
    for (const entry of entries) if (entry.collection === 'sales' && stored.has(entry.id)) ledgerSales?.learn(entry.id, entry.record);
    if (appended.recorded > 0) announce(appended.head);
  };
  return {
    async record(doc, changes, userId) {
      const { entries, unmoved } = entriesOfDocument(doc, changes);
      const notices = unmoved.map(({ collection, id, problem }) => notTaken(collection, id, problem));
      if (entries.length === 0) return { effects: [], notices };
      const appended = await appendEntries(
        sql,
        entries.map((entry) => ({ entry, recordedBy: userId })),
        (tx, named) => documentFacts(tx, doc, named),
      );
      learn(appended, entries);
      const collectionOf = new Map(entries.map((entry) => [entry.id, entry.collection]));
      for (const result of appended.results) {
        const collection = collectionOf.get(result.id);
        if (result.outcome !== 'refused' || !collection || collection === 'careEntries') continue;
        // The same id with another record: a change of a recorded fact, which the ledger never makes.
        const reason = result.status === 409 ? `A ${COLLECTION_NOUN[collection]} cannot be changed once recorded` : result.message;
        notices.push(notTaken(collection, result.id, reason));
      }
      return { effects: appended.effects, notices };
    },
    async move(doc) {
      const moved = await moveDocumentToLedger(sql, doc);
      const { entries } = entriesOfDocument(doc);
      for (const entry of entries) if (entry.collection === 'sales') ledgerSales?.learn(entry.id, entry.record);
      if (moved.recorded > 0) announce(await ledgerHead(sql));
      return moved;
    },
    done: (ids) => effectsDone(sql, ids),
  };
}
