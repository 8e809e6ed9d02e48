import * as Y from 'yjs';
import type { Sql } from '../db/client.ts';
import type { EntityChanges } from '../../../shared/index.ts';
import { projectChanges } from './projection.ts';

export type LoadedDocument = { doc: Y.Doc; lastSeq: bigint };

/** Loads a document from its latest snapshot plus the updates logged after it. */
export async function loadDocument(sql: Sql, name: string, origin: unknown): Promise<LoadedDocument> {
  await sql`insert into docs (name) values (${name}) on conflict (name) do nothing`;
  const doc = new Y.Doc({ gc: true });
  const [snapshot] = await sql<{ state: Uint8Array; upto_seq: string }[]>`
    select state, upto_seq from doc_snapshots where doc = ${name}`;
  const from = snapshot ? snapshot.upto_seq : '0';
  const updates = await sql<{ update: Uint8Array; seq: string }[]>`
    select update, seq from doc_updates where doc = ${name} and seq > ${from} order by seq`;
  // One transaction for all of them: applying stored updates one by one is far slower.
  doc.transact(() => {
    if (snapshot) Y.applyUpdate(doc, snapshot.state);
    for (const row of updates) Y.applyUpdate(doc, row.update);
  }, origin);
  const last = updates.at(-1)?.seq ?? from;
  return { doc, lastSeq: BigInt(last) };
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
    await tx`insert into doc_updates ${tx(rows, 'doc', 'seq', 'update', 'user_id')}`;
    await projectChanges(tx, doc, changes);
    return BigInt(row.last_seq);
  });
}
