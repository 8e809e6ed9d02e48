import type * as Y from 'yjs';
import { collectionMap, entityShape, type RanchFigures } from '../../../../shared/index.ts';
import { asDueRequest, readDue, type DueAnswer, type DueRequest } from '../../features/care/due-answer.ts';
import { loadRanchFigures } from '../../features/dashboard/load-figures.ts';
import type { RanchDb } from '../db.ts';
import { GROUP_FIELD, isGrouped, type GroupedCollection } from '../record-groups.ts';

/** What the queries read: the document and the read model the projection keeps. */
export type QuerySource = { doc: Y.Doc; db: RanchDb; projection: { settled(): Promise<void> } };

/**
 * The reads the page asks of the data host, where the document is (docs/web.md "The data
 * layer in a worker"), each registered here once: the host serves them over the RPC and the
 * page calls them by name (host-api.ts QUERY_METHODS, checked complete against this). Their
 * arguments come from any page of the origin, so each checks its own.
 */
export function createQueries({ doc, db, projection }: QuerySource) {
  return {
    /** The sale a payment or the horse a care entry belongs to, from the document (the read model keeps them by group, record-groups.ts); null if unknown. */
    async groupOf(collection: GroupedCollection, id: string): Promise<string | null> {
      if (!isGrouped(collection)) return null;
      const shape = entityShape(collection, String(id), collectionMap(doc, collection).get(String(id)));
      const group = shape.kind === 'entity' ? shape.fields[GROUP_FIELD[collection]] : undefined;
      return typeof group === 'string' && group !== '' ? group : null;
    },
    // Both after the batches queued (a first sync's): read once, complete, not between its transactions.
    /**
     * What is due ([K4]), from the read model (due-answer.ts), answered small however many
     * items are due: the first rows, the count, the bell's marks when it names the user.
     */
    async loadDue(request: DueRequest): Promise<DueAnswer> {
      await projection.settled();
      return readDue(db, asDueRequest(request));
    },
    /** The Dashboard's figures on `today`, from the read model (load-figures.ts): a few numbers, so the page never reads the whole ranch. */
    async loadFigures(today: string): Promise<RanchFigures> {
      await projection.settled();
      return loadRanchFigures(db, String(today));
    },
  };
}

export type HostQueries = ReturnType<typeof createQueries>;
