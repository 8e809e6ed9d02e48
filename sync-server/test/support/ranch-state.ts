import * as Y from 'yjs';
import type { Sql } from '../../src/db/client.ts';
import {
  COLLECTIONS,
  collectionMap,
  DOC_COLLECTIONS,
  DOC_NAME,
  isEntityId,
  MOVED_TO_LEDGER,
  RECORD_SCHEMAS,
  REFERENCES,
  saleMoneyBySale,
  type Collection,
  type MoneyCorrection,
  type StoredSale,
} from '../../../shared/index.ts';
import { withStanding } from '../../src/api/sale-standing.ts';
import type { ApiClient } from './client.ts';

type Row = Record<string, unknown>;

/** The whole document as one string: every top-level map, keys sorted at every level. */
export function canonicalState(doc: Y.Doc): string {
  return JSON.stringify(
    sortKeys(Object.fromEntries(COLLECTIONS.map((collection) => [collection, collectionMap(doc, collection).toJSON()]))),
  );
}

/** The collections the document holds in layout 3 (DOC_COLLECTIONS) as one string, keys sorted at every level. */
export function documentState(doc: Y.Doc): string {
  return JSON.stringify(
    sortKeys(Object.fromEntries(DOC_COLLECTIONS.map((collection) => [collection, collectionMap(doc, collection).toJSON()]))),
  );
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Row)[key])]),
  );
}

/** A ledger entry's record under its id, as Postgres holds it. */
export type LedgerRecord = { id: string; collection: string; record: Row };

/** The ledger as Postgres holds it durably: each entry's record, in the server's order (docs/sync-rules.md §7). */
export async function durableLedger(sql: Sql): Promise<LedgerRecord[]> {
  return sql<LedgerRecord[]>`select id::text, collection, record from ledger order by seq`;
}

/** The document as Postgres holds it durably: the snapshot and the log after it (docs/architecture.md "Postgres"). */
export async function durableDocument(sql: Sql): Promise<Y.Doc> {
  const doc = new Y.Doc();
  await sql.begin('isolation level repeatable read', async (tx) => {
    const [snapshot] = await tx<{ state: Uint8Array; upto_seq: string }[]>`
      select state, upto_seq from doc_snapshots where doc = ${DOC_NAME}`;
    const updates = await tx<{ update: Uint8Array }[]>`
      select update from doc_updates where doc = ${DOC_NAME} and seq > ${snapshot?.upto_seq ?? '0'} order by seq`;
    doc.transact(() => {
      if (snapshot) Y.applyUpdate(doc, snapshot.state);
      for (const { update } of updates) Y.applyUpdate(doc, update);
    });
  });
  return doc;
}

export type Verdicts = {
  /** Per collection, the valid entities as the REST API should list them ([Y3] fields). */
  valid: Record<Collection, Row[]>;
  /** `collection/id` of every entity the document holds that is not valid. */
  invalid: string[];
};

/**
 * What the shared contract says of a document: an entity is valid when its record schema
 * accepts it and everything it refers to is in the document (shared/schemas/records.ts).
 * Written from the contract, not from the server's code, so the test can disagree with it.
 * With `ledger` (layout 3), sales, payments and corrections are its entries, each valid when
 * its record schema accepts it (what it names is the ledger's rules' to judge: kept, flagged).
 */
export function verdicts(doc: Y.Doc, only?: ReadonlySet<string>, ledger?: LedgerRecord[]): Verdicts {
  const valid = Object.fromEntries(COLLECTIONS.map((collection) => [collection, [] as Row[]])) as Record<Collection, Row[]>;
  const invalid: string[] = [];
  const fromLedger = (collection: Collection) => ledger !== undefined && (MOVED_TO_LEDGER as readonly Collection[]).includes(collection);
  for (const collection of COLLECTIONS) {
    if (fromLedger(collection)) {
      for (const { id, record } of ledger?.filter((entry) => entry.collection === collection) ?? []) {
        if (only && !only.has(id)) continue;
        const parsed = RECORD_SCHEMAS[collection].safeParse(record);
        if (parsed.success) valid[collection].push(normalizeRow({ ...(parsed.data as Row), id }));
        else invalid.push(`${collection}/${id}`);
      }
      continue;
    }
    for (const [id, entity] of collectionMap(doc, collection).entries()) {
      if (!isEntityId(id)) continue; // never projected, never listed (architecture.md)
      if (only && !only.has(id)) continue;
      const parsed = RECORD_SCHEMAS[collection].safeParse(entity instanceof Y.Map ? entity.toJSON() : entity);
      const record = parsed.success ? (parsed.data as Row) : undefined;
      const dangling = Object.entries(REFERENCES[collection] ?? {}).some(
        ([field, target]) => typeof record?.[field] === 'string' && !collectionMap(doc, target).has(record[field] as string),
      );
      if (record && !dangling) valid[collection].push(normalizeRow({ ...record, id }));
      else invalid.push(`${collection}/${id}`);
    }
  }
  // A sale's standing derives from the valid payments and corrections of the document ([S7], [S9], [P8]–[P11], [S17], [Y5]);
  // what is past due, on the server's UTC date as REST reads it by default ([S10], [S16]).
  const today = new Date().toISOString().slice(0, 10);
  const corrections = valid.corrections as unknown as MoneyCorrection[];
  const money = saleMoneyBySale(valid.payments as unknown as { id: string; saleId: string; amount: string }[], corrections);
  valid.sales = valid.sales.map(
    (sale) => withStanding(sale as unknown as StoredSale, money.get(sale.id as string), today) as unknown as typeof sale,
  );
  const voided = new Set(corrections.filter((correction) => correction.kind === 'void').map((correction) => correction.paymentId));
  valid.payments = valid.payments.map((payment) => ({ ...payment, voided: voided.has(payment.id as string) }));
  for (const collection of COLLECTIONS) valid[collection].sort(byId);
  return { valid, invalid: invalid.sort() };
}

/** The projection as users see it: every list of the REST API (only the entities `only` names, when given). */
export async function projection(api: ApiClient, only?: ReadonlySet<string>): Promise<Record<Collection, Row[]>> {
  const lists = await Promise.all(
    COLLECTIONS.map(async (collection) => {
      const response = await api.request(`/api/${collection}`);
      if (response.status !== 200) throw new Error(`GET /api/${collection}: ${response.status} ${await response.text()}`);
      const rows = (await response.json()) as Row[];
      return [
        collection,
        rows
          .filter((row) => !only || only.has(row.id as string))
          .map(normalizeRow)
          .sort(byId),
      ] as const;
    }),
  );
  return Object.fromEntries(lists) as Record<Collection, Row[]>;
}

/** Entities listed in entity_problems, as `collection/id`. */
export async function listedProblems(sql: Sql, only?: ReadonlySet<string>): Promise<string[]> {
  const rows = await sql<{ key: string; id: string }[]>`select collection || '/' || entity_id as key, entity_id as id from entity_problems`;
  return rows
    .filter((row) => !only || only.has(row.id))
    .map((row) => row.key)
    .sort();
}

/** A timestamp is a moment: "…T10:00:00+02:00" and "…T08:00:00.000Z" are the same createdAt. */
function normalizeRow(row: Row): Row {
  return typeof row.createdAt === 'string' ? { ...row, createdAt: new Date(row.createdAt).toISOString() } : row;
}

function byId(a: Row, b: Row): number {
  return String(a.id).localeCompare(String(b.id));
}
