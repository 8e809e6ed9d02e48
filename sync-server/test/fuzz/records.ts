import * as Y from 'yjs';
import type { Sql } from '../../src/db/client.ts';
import type { ApiClient } from '../support/client.ts';
import { selectList, TABLES } from '../../src/sync/tables.ts';
import {
  collectionMap,
  COLLECTIONS,
  DOC_COLLECTIONS,
  readRecord,
  RECORD_FIELDS,
  RECORD_SCHEMAS,
  REFERENCES,
  type Collection,
  type LedgerPage,
} from '../../../shared/index.ts';

/**
 * The ranch as its readers see it, each as `collection/id` → one canonical string of the
 * record (the record schema's output, `createdAt` as an instant), so a document entity, a
 * Postgres row and a Dexie row of the same record compare equal.
 */
export type Records = Map<string, string>;

const MAX_SHOWN = 240;
const shown = (value: unknown): string => {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…(${text.length} chars)` : text;
};

/** The canonical string of a record's fields (as the document would hold them), or why they are not a record. */
export function canonicalRecord(collection: Collection, id: string, fields: Record<string, unknown>): string {
  const { id: _id, ...rest } = fields;
  const parsed = RECORD_SCHEMAS[collection].safeParse(rest);
  if (!parsed.success) return `NOT A RECORD ${shown(fields)}`;
  const record: Record<string, unknown> = { ...(parsed.data as Record<string, unknown>), id };
  if (typeof record.createdAt === 'string') record.createdAt = new Date(record.createdAt).toISOString();
  return JSON.stringify(Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b))));
}

/**
 * A row as a device or table holds it, read without trusting it: a field the record does not
 * have, or a value that is not a JSON scalar, makes it no record at all.
 */
export function canonicalRow(collection: Collection, row: Record<string, unknown>): string {
  const allowed = new Set(['id', ...RECORD_FIELDS[collection]]);
  const strays = Object.entries(row).filter(([field, value]) => !allowed.has(field) || (value !== null && typeof value === 'object'));
  if (strays.length > 0) return `NOT A RECORD (${strays.map(([field]) => field).join(', ')}) ${shown(row)}`;
  return canonicalRecord(collection, String(row.id), row);
}

/**
 * The valid entities of a document among `only` (lowercase ids): the shared contract's
 * reading (shared/entity-shape.ts readRecord: UUID key, a Y.Map, id = key, own scalar fields,
 * the record schema) plus references, each naming a Y.Map present under its collection.
 */
export function validEntities(doc: Y.Doc, only: ReadonlySet<string>): Records {
  const records: Records = new Map();
  for (const collection of DOC_COLLECTIONS) {
    for (const [key, value] of collectionMap(doc, collection).entries()) {
      if (!only.has(key.toLowerCase())) continue;
      const reading = readRecord(collection, key, value);
      if (!reading.valid) continue;
      const dangling = Object.entries(REFERENCES[collection] ?? {}).some(([field, target]) => {
        const ref = reading.record[field];
        return typeof ref === 'string' && !(collectionMap(doc, target).get(ref) instanceof Y.Map);
      });
      if (!dangling) records.set(`${collection}/${key}`, canonicalRecord(collection, key, reading.record));
    }
  }
  return records;
}

/** The ledger's entries among `only` (GET /api/ledger, every page): the sales, payments and corrections of layout 3. */
export async function ledgerRecords(staff: ApiClient, only: ReadonlySet<string>): Promise<Records> {
  const records: Records = new Map();
  for (let after = '0', more = true; more; ) {
    const page = (await (await staff.request(`/api/ledger?after=${after}`)).json()) as LedgerPage;
    for (const { id, collection, record } of page.entries)
      if (only.has(id)) records.set(`${collection}/${id}`, canonicalRecord(collection, id, record));
    ({ next: after, more } = page);
  }
  return records;
}

/** The Postgres projection tables' rows among `only`. */
export async function projectionRecords(sql: Sql, only: ReadonlySet<string>): Promise<Records> {
  const records: Records = new Map();
  for (const collection of COLLECTIONS) {
    const rows = await sql<Record<string, unknown>[]>`select ${sql.unsafe(selectList(collection))} from ${sql(TABLES[collection].table)}`;
    for (const row of rows) {
      const id = String(row.id);
      if (only.has(id)) records.set(`${collection}/${id}`, canonicalRow(collection, row));
    }
  }
  return records;
}

/** Where two readings of the ranch differ, one line per record. */
export function differences(label: string, expected: Records, actual: Records): string[] {
  const keys = [...new Set([...expected.keys(), ...actual.keys()])].sort();
  return keys.flatMap((key) => {
    const want = expected.get(key);
    const got = actual.get(key);
    return want === got ? [] : [`${label}: ${key}\n    expected ${want ?? 'absent'}\n    actual   ${got ?? 'absent'}`];
  });
}
