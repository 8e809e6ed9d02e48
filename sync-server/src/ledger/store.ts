import type { Sql, Tx } from '../db/client.ts';
import { LEDGER_FLAGS, type LedgerEntry, type LedgerFlag, type LedgerResult } from '../../../shared/index.ts';
import { canonical, type CheckedEntry } from './entries.ts';
import { historyOfEntries, projectEntries } from './projection.ts';
import { LedgerRules, type DocumentFacts, type KnownEntry } from './rules.ts';

/** Held to the commit by every transaction that appends: seq order is then commit order. */
const LEDGER_LOCK = 7261006;
/** The channel on which every append announces the ledger's new head to the other instances (and this one). */
export const LEDGER_CHANNEL = 'ranch_ledger';
/** Rows per insert statement. */
const INSERT_ROWS = 1000;

/**
 * One entry to append: checked, with who recorded it (null: not known) and, for entries moved
 * from a document, when it was received (else the commit's time).
 */
export type Submission = { entry: CheckedEntry; recordedBy: string | null; receivedAt?: string };

/**
 * What the document must follow of an entry ([S18], [S17]): a sale marks `sold` (its horse)
 * Sold; a cancellation gives the horse of `unsold` (the cancelled sale's record) its status back.
 */
export type DocumentEffect = { id: string; sold?: string; unsold?: Record<string, unknown> };

/** What an append did: an answer per submission, the document effects due, and the head. */
export type Appended = { results: LedgerResult[]; effects: DocumentEffect[]; head: bigint; recorded: number };

/** The document effect of an entry with these flags, if it has one. */
function effectOf(entry: KnownEntry, flags: LedgerFlag[], rules: LedgerRules): DocumentEffect | null {
  if (entry.collection === 'sales' && !flags.includes('horseDeleted')) return { id: entry.id, sold: String(entry.record.horseId) };
  if (entry.collection !== 'corrections' || entry.record.kind !== 'cancel' || flags.includes('alreadyCancelled')) return null;
  const sale = rules.entry('sales', String(entry.record.saleId));
  return sale ? { id: entry.id, unsold: sale.record } : null;
}

type StoredRow = KnownEntry & { seq: string; flags: LedgerFlag[]; effectsPending: boolean };

/**
 * Appends `submissions` in one transaction, in their order (an entry may name one before it):
 * an id already stored with the same record is a duplicate (its first answer again); with
 * another record, refused (409); anything else is judged by the ledger's rules (rules.ts) and
 * stored with the flags it earned, at the next seq, its sale, payment or correction upserted
 * into its projection table in the same transaction (projection.ts). `facts` answers for the document;
 * `effects: false` records no document effect (entries moved from a document that has them).
 * Everything stored is durable, and announced on LEDGER_CHANNEL, when this resolves.
 */
export async function appendEntries(
  sql: Sql,
  submissions: Submission[],
  facts: (tx: Tx, named: NamedInDocument) => Promise<DocumentFacts>,
  options: { effects?: boolean } = {},
): Promise<Appended> {
  const withEffects = options.effects ?? true;
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${LEDGER_LOCK})`;
    const entries = submissions.map((submission) => submission.entry);
    const stored = await storedById(
      tx,
      entries.map((entry) => entry.id),
    );
    const rules = new LedgerRules(await related(tx, entries), await facts(tx, namedInDocument(entries)));
    let seq = await ledgerHead(tx);
    const results: LedgerResult[] = [];
    const effects: DocumentEffect[] = [];
    const rows: Record<string, unknown>[] = [];
    const recorded: CheckedEntry[] = [];
    const received: { seq: string; entry: CheckedEntry; recordedBy: string | null }[] = [];
    for (const { entry, recordedBy, receivedAt } of submissions) {
      const before = stored.get(entry.id);
      if (before) {
        if (before.collection !== entry.collection || canonical(before.record) !== canonical(entry.record)) {
          results.push({ id: entry.id, outcome: 'refused', status: 409, message: 'id: another entry with this id is recorded' });
          continue;
        }
        results.push({ id: entry.id, outcome: 'duplicate', seq: before.seq, flags: before.flags, notes: notes(before.flags) });
        const effect = before.effectsPending && !effects.some((known) => known.id === entry.id) && effectOf(before, before.flags, rules);
        if (effect) effects.push(effect);
        continue;
      }
      const judged = rules.judge(entry);
      if ('refused' in judged) {
        results.push({ id: entry.id, outcome: 'refused', ...judged.refused });
        continue;
      }
      seq += 1n;
      const { flags } = judged;
      rules.learn(entry);
      const effect = withEffects ? effectOf(entry, flags, rules) : null;
      const effectsPending = effect !== null;
      stored.set(entry.id, { ...entry, seq: String(seq), flags, effectsPending });
      if (effect) effects.push(effect);
      recorded.push(entry);
      if (receivedAt === undefined) received.push({ seq: String(seq), entry, recordedBy });
      rows.push({
        seq: String(seq),
        id: entry.id,
        collection: entry.collection,
        record: entry.record,
        recorded_by: recordedBy,
        received_at: receivedAt ?? null,
        flags,
        effects_pending: effectsPending,
      });
      results.push({ id: entry.id, outcome: 'recorded', seq: String(seq), flags, notes: notes(flags) });
    }
    for (let start = 0; start < rows.length; start += INSERT_ROWS) {
      await tx`
        insert into ledger (seq, id, collection, record, recorded_by, received_at, flags, effects_pending)
        select seq, id, collection, record, recorded_by, coalesce(received_at, now()), flags, effects_pending
        from jsonb_to_recordset(${JSON.stringify(rows.slice(start, start + INSERT_ROWS))}::text::jsonb) as e (
          seq bigint, id uuid, collection text, record jsonb, recorded_by uuid, received_at timestamptz,
          flags text[], effects_pending boolean)`;
    }
    await projectEntries(tx, recorded);
    await historyOfEntries(tx, received);
    // Delivered to every instance's listener only once this transaction commits.
    if (rows.length > 0) await tx`select pg_notify(${LEDGER_CHANNEL}, ${String(seq)})`;
    return { results, effects, head: seq, recorded: rows.length };
  });
}

/** The flags in words, for the person whose device pushed the entry. */
const notes = (flags: LedgerFlag[]) => flags.map((flag) => LEDGER_FLAGS[flag]);

/** Horses and buyers the entries name, for the document's answer. */
export type NamedInDocument = { horses: string[]; buyers: string[] };

function namedInDocument(entries: CheckedEntry[]): NamedInDocument {
  const horses = new Set<string>();
  const buyers = new Set<string>();
  for (const { collection, record } of entries) {
    if ((collection === 'sales' || collection === 'careEntries') && typeof record.horseId === 'string') horses.add(record.horseId);
    if (collection === 'sales' && typeof record.buyerId === 'string') buyers.add(record.buyerId);
  }
  return { horses: [...horses], buyers: [...buyers] };
}

/** Of `ids` (horses or buyers), those the projection removed: deleted from the document meanwhile. */
export async function deletedFromDocument(tx: Tx, collection: 'horses' | 'buyers', ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx<{ id: string }[]>`
    select entity_id::text as id from entity_tombstones where collection = ${collection} and entity_id = any(${ids}::uuid[])`;
  return new Set(rows.map((row) => row.id));
}

async function storedById(tx: Tx, ids: string[]): Promise<Map<string, StoredRow>> {
  const rows = await tx<StoredRow[]>`
    select id::text, collection, record, seq::text, to_jsonb(flags) as flags, effects_pending as "effectsPending"
    from ledger where id = any(${ids}::uuid[])`;
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The stored entries the rules need to judge `entries`: the sales they name or are, the sales
 * of the horses they sell, and every payment and correction of those sales.
 */
async function related(tx: Tx, entries: CheckedEntry[]): Promise<KnownEntry[]> {
  const saleIds = new Set<string>();
  const horseIds = new Set<string>();
  for (const { id, collection, record } of entries) {
    if (collection === 'sales') {
      saleIds.add(id);
      if (typeof record.horseId === 'string') horseIds.add(record.horseId);
    } else if (typeof record.saleId === 'string' && collection !== 'careEntries') saleIds.add(record.saleId);
  }
  if (saleIds.size === 0) return [];
  return tx<KnownEntry[]>`
    with sales as (
      select id, collection, record from ledger
      where collection = 'sales' and (id = any(${[...saleIds]}::uuid[]) or record ->> 'horseId' = any(${[...horseIds]}::text[]))
    )
    select id::text, collection, record from sales
    union all
    select l.id::text, l.collection, l.record from ledger l
    where l.collection in ('payments', 'corrections') and l.record ->> 'saleId' in (select id::text from sales)`;
}

/** Marks the document effects of `ids` done (they reached the document). */
export async function effectsDone(sql: Sql, ids: string[]): Promise<void> {
  if (ids.length > 0) await sql`update ledger set effects_pending = false where id = any(${ids}::uuid[])`;
}

/** The ledger's head: the largest seq (0 when empty). */
export async function ledgerHead(sql: Sql | Tx): Promise<bigint> {
  const [row] = await sql<{ head: string }[]>`select coalesce(max(seq), 0)::text as head from ledger`;
  return BigInt(row?.head ?? 0);
}

/** Up to `limit` entries after `after`, in seq order. */
export async function entriesAfter(sql: Sql, after: bigint, limit: number): Promise<LedgerEntry[]> {
  return sql<LedgerEntry[]>`
    select seq::text, id::text, collection, record, recorded_by::text as "recordedBy",
      to_char(received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "receivedAt", to_jsonb(flags) as flags
    from ledger where seq > ${String(after)}::bigint order by ledger.seq limit ${limit}`;
}
