import { randomUUID } from 'node:crypto';
import * as Y from 'yjs';
import {
  collectionMap,
  COLLECTIONS,
  DOC_NAME,
  entityShape,
  isEntityId,
  writeEntity,
  type Collection,
  type EntityChanges,
  type EntityFields,
} from '../../../shared/index.ts';
import type { Tx } from '../db/client.ts';
import { applyCompensations, planCompensations } from '../sync/compensation.ts';
import { SYNC_RULES_VERSION } from '../sync/document-host.ts';
import { DocumentEpoch, freshClientId } from '../sync/epoch.ts';
import { readUpdatesSince } from '../sync/persistence.ts';
import { lastValidStates, projectionStatements } from '../sync/projection.ts';
import { ReferenceIndex } from '../sync/references.ts';
import { checkFields } from '../sync/validation.ts';

export type DroppedRecord = { collection: Collection; id: string; problem: string };

export type RebuildSummary = {
  name: string;
  previousEpoch: string;
  epoch: string;
  /** The full state a new device downloads, before and after. */
  bytesBefore: number;
  bytesAfter: number;
  /** Records kept, by collection. */
  kept: Record<Collection, number>;
  /** Records the sync rules could not make valid, with why. */
  dropped: DroppedRecord[];
  /** Log entries folded into the new document (they are deleted; the change history stays). */
  foldedUpdates: number;
  /** Rows of the change history, untouched. */
  historyRows: number;
};

/**
 * The document's valid records, after the sync rules' own repairs: every entity is checked as
 * when a document stored under older rules is loaded (planCompensations: last valid states
 * from the projection, stray content cleared), then whatever is still invalid is dropped, and
 * so, in turn, is whatever referred to it. Every kind of record is kept: a document stored in
 * layout 2 and not loaded since still holds sales, payments and corrections, which the server
 * moves to the ledger when it next loads the document (docs/sync-rules.md §7).
 */
async function validRecords(tx: Tx, doc: Y.Doc): Promise<{ kept: Map<Collection, Map<string, EntityFields>>; dropped: DroppedRecord[] }> {
  const everything: EntityChanges = new Map(COLLECTIONS.map((collection) => [collection, new Set(collectionMap(doc, collection).keys())]));
  const plans = await planCompensations(doc, { changes: everything, edits: new Map() }, new ReferenceIndex(doc), (collection, ids) =>
    lastValidStates(tx, collection, ids),
  );
  if (plans.length > 0) doc.transact(() => applyCompensations(doc, plans));
  const dropped: DroppedRecord[] = [];
  for (const plan of plans) {
    if (plan.kind === 'remove' && isEntityId(plan.id)) dropped.push({ collection: plan.collection, id: plan.id, problem: plan.reason });
  }
  const candidates = new Map<Collection, Map<string, EntityFields>>();
  for (const collection of COLLECTIONS) {
    const records = new Map<string, EntityFields>();
    collectionMap(doc, collection).forEach((value, id) => {
      if (!isEntityId(id)) return; // a stray key: never a record
      const shape = entityShape(collection, id, value);
      if (shape.kind !== 'entity' || shape.strays.length > 0) {
        dropped.push({
          collection,
          id,
          problem: shape.kind === 'entity' ? `${shape.strays.join(', ')}: not fields of this record` : shape.kind,
        });
      } else records.set(id, shape.fields);
    });
    candidates.set(collection, records);
  }
  // A record is kept when it is valid against the records kept: dropping one may leave another's reference dangling.
  const exists = (collection: Collection, id: string) => candidates.get(collection)?.has(id) ?? false;
  for (let changed = true; changed; ) {
    changed = false;
    for (const [collection, records] of candidates) {
      for (const [id, fields] of records) {
        const verdict = checkFields(collection, id, fields, exists);
        if (verdict.state === 'valid') continue;
        records.delete(id);
        dropped.push({ collection, id, problem: verdict.state === 'invalid' ? verdict.problem : 'absent' });
        changed = true;
      }
    }
  }
  return { kept: candidates, dropped };
}

/**
 * `npm run rebuild-document` (docs/sync-rules.md "Document epochs"): replaces the stored
 * document by a fresh one holding its valid records, under a new epoch, in one transaction.
 * Yjs keeps the key of every deleted map entry and the name of every top-level type in every
 * later state; only a new document is free of what a hostile or broken client left there.
 *
 * The new document is the snapshot at the next log position; the log is folded into it; the
 * client ids of the old document are retired (an update naming one is refused, epoch.ts); the
 * projection is rewritten from it (the same rows, less what was dropped). The change history,
 * conflicts, accounts, sessions and photos are not touched. Run it with every server stopped
 * (the caller checks, maintenance/cli.ts): a running server would keep serving the old document.
 * Resolves with what it did, or null when the database holds no such document.
 */
export async function rebuildDocument(tx: Tx, name: string = DOC_NAME): Promise<RebuildSummary | null> {
  const [row] = await tx<{ last_seq: string; epoch: string; retired_clients: Uint8Array | null }[]>`
    select last_seq, epoch, retired_clients from docs where name = ${name} for update`;
  if (!row) return null;
  const stored = await readUpdatesSince(tx, name, 0n);
  const old = new Y.Doc({ gc: true });
  if (stored.snapshot) Y.applyUpdate(old, stored.snapshot);
  for (const update of stored.updates) Y.applyUpdate(old, update);
  const bytesBefore = Y.encodeStateAsUpdate(old).byteLength;
  const ids: EntityChanges = new Map(COLLECTIONS.map((collection) => [collection, new Set(collectionMap(old, collection).keys())]));
  // Every client id the document ever held, in this epoch and the earlier ones.
  const retired = new Map(row.retired_clients ? Y.decodeStateVector(row.retired_clients) : []);
  for (const [client, clock] of Y.decodeStateVector(Y.encodeStateVector(old)))
    retired.set(client, Math.max(clock, retired.get(client) ?? 0));
  const { kept, dropped } = await validRecords(tx, old);

  const epoch = new DocumentEpoch(randomUUID(), retired);
  const fresh = new Y.Doc({ gc: true });
  freshClientId(fresh, epoch);
  fresh.transact(() => {
    for (const [collection, records] of kept) {
      for (const [id, fields] of records) writeEntity(fresh, collection, id, fields);
    }
  });
  const state = Y.encodeStateAsUpdate(fresh);
  for (const [collection, records] of kept) for (const id of records.keys()) ids.get(collection)?.add(id);
  old.destroy();

  // One statement, as a commit: the log position claimed, the projection rewritten from the new document.
  const parameters: unknown[] = [name];
  const parameter = (value: unknown) => `$${parameters.push(value)}`;
  const parts = [
    `claimed as (update docs set last_seq = last_seq + 1, epoch = ${parameter(epoch.id)}, retired_clients = ${parameter(Y.encodeStateVector(retired))}::bytea, checked_rules = ${parameter(SYNC_RULES_VERSION)}::integer where name = $1 returning last_seq)`,
    ...projectionStatements(fresh, ids, parameter),
  ];
  const [claimed] = await tx.unsafe<{ last_seq: string }[]>(
    `with ${parts.join(',\n')} select last_seq from claimed`,
    parameters as never[],
  );
  const uptoSeq = claimed!.last_seq;
  const folded = await tx`delete from doc_updates where doc = ${name} returning seq`;
  await tx`insert into doc_snapshots (doc, state, upto_seq) values (${name}, ${state}, ${uptoSeq})
           on conflict (doc) do update set state = excluded.state, upto_seq = excluded.upto_seq, created_at = now()`;
  const [history] = await tx<{ count: string }[]>`select count(*) as count from change_history`;
  fresh.destroy();
  return {
    name,
    previousEpoch: row.epoch,
    epoch: epoch.id,
    bytesBefore,
    bytesAfter: state.byteLength,
    kept: Object.fromEntries([...kept].map(([collection, records]) => [collection, records.size])) as Record<Collection, number>,
    dropped,
    foldedUpdates: folded.length,
    historyRows: Number(history?.count ?? 0),
  };
}
