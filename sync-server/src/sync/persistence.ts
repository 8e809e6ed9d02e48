import * as Y from 'yjs';
import type { Sql, Tx } from '../db/client.ts';
import type { EntityChanges } from '../../../shared/index.ts';
import { historyStatements, type HistoryStep } from './history.ts';
import { projectionStatements } from './projection.ts';
import { applyStored, MAX_UPDATES_PER_COMMIT, type LoggedUpdate, type StoredUpdates } from './document-store.ts';

export { applyStored, MAX_UPDATES_PER_COMMIT, type LoggedUpdate, type StoredUpdates };

/** The channel on which every commit announces `<doc> <last seq>` to the other instances. */
export const UPDATES_CHANNEL = 'ranch_updates';

/**
 * What a document at log position `afterSeq` lacks, in one statement (one consistent view,
 * even while another instance compacts): the snapshot when it reaches past `afterSeq` (its
 * log was folded into it and deleted), and the updates logged after both.
 */
export async function readUpdatesSince(sql: Sql | Tx, name: string, afterSeq: bigint): Promise<StoredUpdates> {
  const rows = await sql<{ snapshot: boolean; seq: string; data: Uint8Array }[]>`
    select true as snapshot, upto_seq as seq, state as data from doc_snapshots where doc = ${name} and upto_seq > ${String(afterSeq)}
    union all
    select false, seq, update from doc_updates where doc = ${name} and seq > ${String(afterSeq)}
    order by snapshot desc, seq`;
  const snapshotRow = rows[0]?.snapshot ? rows[0] : undefined;
  const snapshotSeq = BigInt(snapshotRow?.seq ?? afterSeq);
  const updates = rows.filter((row) => !row.snapshot && BigInt(row.seq) > snapshotSeq);
  return {
    snapshot: snapshotRow?.data ?? null,
    updates: updates.map((row) => row.data),
    lastSeq: BigInt(updates.at(-1)?.seq ?? snapshotSeq),
    snapshotSeq,
  };
}

export type LoadedDocument = { doc: Y.Doc; lastSeq: bigint; snapshotSeq: bigint };

/** Loads a document from its latest snapshot plus the updates logged after it. */
export async function loadDocument(sql: Sql, name: string, origin: unknown): Promise<LoadedDocument> {
  await sql`insert into docs (name) values (${name}) on conflict (name) do nothing`;
  const stored = await readUpdatesSince(sql, name, 0n);
  const doc = new Y.Doc({ gc: true });
  applyStored(doc, stored, origin);
  return { doc, lastSeq: stored.lastSeq, snapshotSeq: stored.snapshotSeq };
}

/**
 * Replaces the log up to `uptoSeq` by one snapshot of the state. Yjs devices sync by state
 * vector, never by log position, so a device offline for months still gets all it lacks
 * from the snapshot, and its own changes still merge. The log is not kept as an audit trail.
 */
export async function compactDocument(sql: Sql, name: string, state: Uint8Array, uptoSeq: bigint): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`insert into doc_snapshots (doc, state, upto_seq) values (${name}, ${state}, ${String(uptoSeq)})
             on conflict (doc) do update set state = excluded.state, upto_seq = excluded.upto_seq, created_at = now()
             where doc_snapshots.upto_seq < excluded.upto_seq`;
    await tx`delete from doc_updates where doc = ${name} and seq <= ${String(uptoSeq)}`;
  });
}

/** Statements of this many updates or fewer are prepared (few distinct texts, used often). */
const PREPARE_UP_TO = 4;

/** The commit statement of appendUpdates: its text, its parameters, and whether it is prepared. */
export type AppendStatement = { text: string; parameters: unknown[]; prepare: boolean };

/**
 * The one statement that makes a commit durable (appendUpdates): the log rows, the projection
 * rows of the changed entities, the history and conflict rows, and a notification to the
 * other instances, all conditional on the log still ending at `expectedSeq`. Every part
 * reads the `claimed` row, so none runs unless the log position was claimed, and the claim's
 * row lock serialises commits across instances in sequence order. Each part reaches the rows
 * of the changed entities by key, so its work follows the change, not the tables' size.
 */
export function appendStatement(
  name: string,
  expectedSeq: bigint,
  updates: LoggedUpdate[],
  doc: Y.Doc,
  changes: EntityChanges,
  history: HistoryStep[] = [],
): AppendStatement {
  if (updates.length === 0 || updates.length > MAX_UPDATES_PER_COMMIT) {
    throw new Error(`appendUpdates takes 1 to ${MAX_UPDATES_PER_COMMIT} updates, not ${updates.length}`);
  }
  const parameters: unknown[] = [name, String(expectedSeq), updates.length, UPDATES_CHANNEL];
  const parameter = (value: unknown) => `$${parameters.push(value)}`;
  const values = updates.map(({ update, userId }, index) => `(${parameter(update)}::bytea, ${parameter(userId)}::uuid, ${index + 1})`);
  const parts = [
    `claimed as (update docs set last_seq = last_seq + $3 where name = $1 and last_seq = $2::bigint returning last_seq)`,
    `logged as (insert into doc_updates (doc, seq, update, user_id)
       select $1, claimed.last_seq - $3 + entry.ord, entry.update, entry.user_id
       from claimed, (values ${values.join(', ')}) as entry (update, user_id, ord))`,
    ...projectionStatements(doc, changes, parameter),
    ...historyStatements(history, parameter),
  ];
  return {
    text: `with ${parts.join(',\n')}
     select last_seq, pg_notify($4, $1 || ' ' || last_seq) from claimed`,
    parameters,
    // A device's small edits repeat the same statement: prepared once per connection, each
    // commit is then one round trip (unprepared ones ask Postgres for parameter types first).
    prepare: updates.length <= PREPARE_UP_TO && history.length <= PREPARE_UP_TO,
  };
}

/**
 * Makes updates durable in ONE statement (appendStatement: one round trip and one commit).
 * Returns the new last sequence number, or null when another instance logged updates this
 * document has not seen (then nothing was written: catch up under the log lock,
 * PostgresDocumentStore.locked, and write again).
 */
export async function appendUpdates(
  sql: Sql | Tx,
  name: string,
  expectedSeq: bigint,
  updates: LoggedUpdate[],
  doc: Y.Doc,
  changes: EntityChanges,
  history: HistoryStep[] = [],
): Promise<bigint | null> {
  const { text, parameters, prepare } = appendStatement(name, expectedSeq, updates, doc, changes, history);
  const [row] = await sql.unsafe<{ last_seq: string }[]>(text, parameters as never[], { prepare });
  return row ? BigInt(row.last_seq) : null;
}
