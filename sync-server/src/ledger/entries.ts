import {
  isEntityId,
  isLedgerCollection,
  parseFields,
  RECORD_FIELDS,
  type LedgerCollection,
  type LedgerEntryInput,
} from '../../../shared/index.ts';

/** An entry whose record passed its collection's schema: the record as the schema reads it, without `id`. */
export type CheckedEntry = { id: string; collection: LedgerCollection; record: Record<string, unknown> };

/** Why a pushed value is not an entry at all (the whole push is refused, 400). */
export class MalformedEntry extends Error {}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The envelope of one pushed entry: `{ id, collection, record }` and nothing else, the id a
 * lowercase UUID ([Y3]), the record an object of scalars. `index` names it in the message.
 */
export function readEnvelope(value: unknown, index: number): LedgerEntryInput {
  const at = `entries.${index}`;
  if (!isPlainObject(value)) throw new MalformedEntry(`${at}: must be an object { id, collection, record }`);
  const extra = Object.keys(value).filter((key) => key !== 'id' && key !== 'collection' && key !== 'record');
  if (extra.length > 0) throw new MalformedEntry(`${at}.${extra[0]}: not a field of an entry`);
  const { id, collection, record } = value;
  if (typeof id !== 'string' || !isEntityId(id)) throw new MalformedEntry(`${at}.id: must be a lowercase UUID`);
  if (!isLedgerCollection(collection))
    throw new MalformedEntry(`${at}.collection: must be one of sales, payments, careEntries, corrections`);
  if (!isPlainObject(record)) throw new MalformedEntry(`${at}.record: must be an object of the record's fields`);
  return { id, collection, record };
}

/** Half of a UTF-16 pair without its other half: no character, and Postgres's jsonb refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The record checked as the socket checks a synced one (shared/schemas, docs/sync-rules.md
 * §1): only its collection's fields (no `id`, no `updatedAt`), each a scalar, and the record
 * schema satisfied. Returns the checked entry, or the problem in words.
 */
export function checkRecord(entry: LedgerEntryInput): CheckedEntry | { problem: string } {
  const fields = RECORD_FIELDS[entry.collection];
  for (const [field, value] of Object.entries(entry.record)) {
    if (!fields.includes(field)) return { problem: `${field}: not a field of this record` };
    if (typeof value === 'object' && value !== null) return { problem: `${field}: must be a single value` };
    if (typeof value === 'string' && LONE_SURROGATE.test(value)) return { problem: `${field}: Must be valid text` };
  }
  const parsed = parseFields(entry.collection, entry.id, entry.record as Record<string, never>);
  if (!parsed.valid) return { problem: parsed.problem };
  const { id: _id, ...record } = parsed.record;
  return { id: entry.id, collection: entry.collection, record };
}

/** A record as one canonical text (keys sorted): two pushes of one entry compare equal whatever their key order. */
export function canonical(record: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}
