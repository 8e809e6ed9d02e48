import * as Y from 'yjs';
import type { Collection, EntityFields, JsonValue } from './doc-layout.ts';
import { isEntityId } from './ids.ts';
import { DEVICE_TIME_FIELD, isDeviceTime, RECORD_FIELDS, RECORD_SCHEMAS } from './schemas/records.ts';

/**
 * What one value under a collection key is, read without trusting it: the document layout is
 * a public contract, so any stock Yjs client can put anything there (docs/sync-rules.md).
 * - `bad-key`: the key is not an entity id (a UUID);
 * - `not-a-map`: the value is not a Y.Map (a string, a Y.Text, a Y.Array …);
 * - `entity`: a map; `fields` holds its own fields whose values are JSON scalars, and
 *   `strays` names every field that has no place in it: unknown fields, own fields holding
 *   a shared type or an object, and `id` when it is not the key.
 */
export type EntityShape = { kind: 'bad-key' } | { kind: 'not-a-map' } | { kind: 'entity'; fields: EntityFields; strays: string[] };

const isScalar = (value: unknown): value is JsonValue =>
  value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/**
 * Reads an entity one level deep. Never recurses into nested values (a hostile client can
 * nest thousands of maps: `toJSON` would overflow the stack) and never throws.
 */
export function entityShape(collection: Collection, key: string, value: unknown): EntityShape {
  if (!isEntityId(key)) return { kind: 'bad-key' };
  if (!(value instanceof Y.Map)) return { kind: 'not-a-map' };
  const own = RECORD_FIELDS[collection];
  const fields: EntityFields = {};
  const strays: string[] = [];
  // forEach, not entries(): Yjs's entries() wraps the map's own iterator twice, an object per
  // step in each, and took 3 times as long (50,000 payments in Node: 300–450 ms against
  // 100–180), every record of a first sync and of the server's checks going through here.
  (value as Y.Map<unknown>).forEach((fieldValue, field) => {
    if (field === 'id') {
      if (fieldValue === key) fields.id = key;
      else strays.push(field);
    } else if (own.includes(field) && isScalar(fieldValue)) {
      fields[field] = fieldValue;
    } else if (field === DEVICE_TIME_FIELD && isDeviceTime(fieldValue)) {
      // [T5] The device's time of its last change: kept, read by the history only.
      fields[field] = fieldValue;
    } else {
      strays.push(field);
    }
  });
  if (fields.id === undefined && !strays.includes('id')) strays.push('id');
  return { kind: 'entity', fields, strays };
}

export type EntityReading =
  | { valid: true; record: Record<string, unknown> & { id: string } }
  | { valid: false; problem: string; fields: string[] };

/**
 * Whether a value under a collection key is a valid record by its shape and its record
 * schema (references are not looked at: that needs the rest of the document). The record is
 * the schema's output (amounts as "12500.00", dates as "2024-05-01") with `id` = the key.
 */
export function readRecord(collection: Collection, key: string, value: unknown): EntityReading {
  const shape = entityShape(collection, key, value);
  if (shape.kind === 'bad-key') return { valid: false, problem: 'key: not an entity id', fields: [] };
  if (shape.kind === 'not-a-map') return { valid: false, problem: 'value: not a map of fields', fields: [] };
  if (shape.strays.length > 0) {
    return { valid: false, problem: shape.strays.map((field) => `${field}: not a field of this record`).join('; '), fields: shape.strays };
  }
  return parseFields(collection, key, shape.fields);
}

/** Checks fields (as the document would hold them) against the collection's record schema. */
export function parseFields(collection: Collection, key: string, fields: EntityFields): EntityReading {
  const parsed = RECORD_SCHEMAS[collection].safeParse(fields);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    return {
      valid: false,
      problem: issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      fields: [...new Set(issues.map((issue) => String(issue.path[0] ?? '')).filter(Boolean))],
    };
  }
  return { valid: true, record: { ...(parsed.data as Record<string, unknown>), id: key } };
}
