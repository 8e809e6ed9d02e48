import type { Tx } from '../db/client.ts';
import { selectList, TABLES } from '../sync/tables.ts';
import type { CheckedEntry } from './entries.ts';

/**
 * The ledger's collections whose projection tables follow the ledger (docs/architecture.md
 * "The ledger"): what REST, the dashboard, sale standing and backups read. Care entries stay
 * in the document (docs/sync-rules.md §7 "Not in version 1"), so `care_entries` follows it.
 */
export const PROJECTED_FROM_LEDGER = ['sales', 'payments', 'corrections'] as const;
type Projected = (typeof PROJECTED_FROM_LEDGER)[number];

const isProjected = (collection: string): collection is Projected => (PROJECTED_FROM_LEDGER as readonly string[]).includes(collection);

/** Rows per statement. */
const ROWS = 1000;

/**
 * Upserts the projection rows of entries just recorded, in the ledger's transaction: a row
 * is the entry's record under its id, column by column as the document's projection writes
 * it (sync/tables.ts). An entry never changes, so a row already there (the same record moved
 * from the document) is written with the same values.
 */
export async function projectEntries(tx: Tx, entries: CheckedEntry[]): Promise<void> {
  for (const collection of PROJECTED_FROM_LEDGER) {
    const { table, columns } = TABLES[collection];
    const rows = entries
      .filter((entry) => isProjected(entry.collection) && entry.collection === collection)
      .map(({ id, record }) =>
        Object.fromEntries(columns.map(({ field, column }) => [column, field === 'id' ? id : (record[field] ?? null)])),
      );
    const names = columns.map(({ column }) => column).join(', ');
    const assignments = columns
      .filter(({ column }) => column !== 'id')
      .map(({ column }) => `${column} = excluded.${column}`)
      .join(', ');
    for (let start = 0; start < rows.length; start += ROWS) {
      await tx.unsafe(
        `insert into ${table} (${names})
         select ${names} from jsonb_populate_recordset(null::${table}, $1::text::jsonb)
         on conflict (id) do update set ${assignments}`,
        [JSON.stringify(rows.slice(start, start + ROWS))],
      );
    }
  }
}

/**
 * [T2] The change history of entries received now (not those moved from a document, whose
 * history the document's commits wrote): one `create` row per field that has a value, as the
 * projection reads it back, by who recorded the entry, at the entry's ledger seq — so a
 * sale's history, the Activity screen and a record's history show recorded facts as they
 * showed them when they were records of the document. In the ledger's transaction, after
 * projectEntries.
 */
export async function historyOfEntries(tx: Tx, entries: { seq: string; entry: CheckedEntry; recordedBy: string | null }[]): Promise<void> {
  for (const collection of PROJECTED_FROM_LEDGER) {
    const rows = entries
      .filter(({ entry }) => entry.collection === collection)
      .map(({ seq, entry, recordedBy }) => ({ seq, id: entry.id, recorded_by: recordedBy }));
    const { table } = TABLES[collection];
    for (let start = 0; start < rows.length; start += ROWS) {
      await tx.unsafe(
        `insert into change_history (seq, step, collection, entity_id, kind, field, before, after, user_id)
         select e.seq, 1, $2, e.id, 'create', f.key, null, f.value, e.recorded_by
         from jsonb_to_recordset($1::text::jsonb) as e (seq bigint, id uuid, recorded_by uuid)
         cross join lateral (select to_jsonb(p) as fields from (select ${selectList(collection, 't')} from ${table} t where t.id = e.id) p) r
         cross join lateral jsonb_each(r.fields) as f (key, value)
         where f.key <> 'id' and f.value <> 'null'::jsonb
         order by e.seq, f.key`,
        [JSON.stringify(rows.slice(start, start + ROWS)), collection],
      );
    }
  }
}
