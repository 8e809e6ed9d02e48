import * as Y from 'yjs';
import { chunks, MAX_PARAMETERS } from '../db/chunks.ts';
import type { Sql } from '../db/client.ts';
import type { EntityChanges } from '../../../shared/index.ts';
import { projectChanges } from './projection.ts';

export type LoadedDocument = { doc: Y.Doc; lastSeq: bigint; snapshotSeq: bigint };

/** Loads a document from its latest snapshot plus the updates logged after it. */
export async function loadDocument(sql: Sql, name: string, origin: unknown): Promise<LoadedDocument> {
  await sql`insert into docs (name) values (${name}) on conflict (name) do nothing`;
  // One snapshot of the database: a compaction committing in between cannot hide updates.
  const { snapshot, updates } = await sql.begin('isolation level repeatable read', async (tx) => {
    const [snapshot] = await tx<{ state: Uint8Array; upto_seq: string }[]>`
      select state, upto_seq from doc_snapshots where doc = ${name}`;
    const updates = await tx<{ update: Uint8Array; seq: string }[]>`
      select update, seq from doc_updates where doc = ${name} and seq > ${snapshot?.upto_seq ?? '0'} order by seq`;
    return { snapshot, updates };
  });
  const doc = new Y.Doc({ gc: true });
  // One transaction for all of them: applying stored updates one by one is far slower.
  doc.transact(() => {
    if (snapshot) Y.applyUpdate(doc, snapshot.state);
    for (const row of updates) Y.applyUpdate(doc, row.update);
  }, origin);
  const snapshotSeq = BigInt(snapshot?.upto_seq ?? 0);
  return { doc, lastSeq: BigInt(updates.at(-1)?.seq ?? snapshotSeq), snapshotSeq };
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

export type LoggedUpdate = { update: Uint8Array; userId: string | null };

/**
 * Makes updates durable: appended to the log and projected, in one Postgres transaction.
 * The caller broadcasts only after this resolves. Returns the last sequence number.
 */
export async function appendUpdates(
  sql: Sql,
  name: string,
  updates: LoggedUpdate[],
  doc: Y.Doc,
  changes: EntityChanges,
): Promise<bigint> {
  return sql.begin(async (tx) => {
    // The row lock hands out seq numbers in commit order, across server instances too.
    const [row] = await tx<{ last_seq: string }[]>`
      update docs set last_seq = last_seq + ${updates.length} where name = ${name} returning last_seq`;
    if (!row) throw new Error(`Document ${name} is not registered`);
    const first = BigInt(row.last_seq) - BigInt(updates.length) + 1n;
    const rows = updates.map((entry, index) => ({
      doc: name,
      seq: String(first + BigInt(index)),
      update: entry.update,
      user_id: entry.userId,
    }));
    for (const chunk of chunks(rows, Math.floor(MAX_PARAMETERS / 4))) {
      await tx`insert into doc_updates ${tx(chunk, 'doc', 'seq', 'update', 'user_id')}`;
    }
    await projectChanges(tx, doc, changes);
    return BigInt(row.last_seq);
  });
}
