import * as Y from 'yjs';
import {
  COLLECTIONS,
  collectionMap,
  deleteEntity,
  entityShape,
  INITIAL_EPOCH,
  isEntityId,
  writeEntity,
  type Collection,
  type EntityFields,
} from '../../../shared/index.ts';
import type { RanchDb } from './db.ts';
import { LOCAL_ORIGIN } from './origins.ts';

/**
 * A change this device made and the server never acknowledged, as a record-level write that
 * any document can take (docs/sync-rules.md "Document epochs", "What a device keeps"):
 * - `record`: the record was created (or set whole) here: all its fields as this device has them;
 * - `fields`: fields of a record written here: their values as this device has them;
 * - `delete`: a record written here and then deleted here.
 */
export type CarriedChange =
  | { kind: 'record' | 'fields'; collection: Collection; id: string; fields: EntityFields }
  | { kind: 'delete'; collection: Collection; id: string };

const CARRY_OVER_KEY = 'sync.carryOver';
/** The epoch the server named when the document was replaced: what the next document holds, even before it has synced. */
const NEXT_EPOCH_KEY = 'sync.nextEpoch';
const COLLECTION_NAMES: ReadonlySet<string> = new Set(COLLECTIONS);

/** A record this device wrote: its map as this device has it (null when deleted here), and what it wrote. */
type Touched = { collection: Collection; id: string; whole: boolean; fields: Set<string>; record: Y.Map<unknown> | null };

/**
 * The record an integrated item writes — its collection, id, the field (null: the record
 * itself) and the record's map while it is not deleted — or null when it is not one of the layout's.
 */
function placeOf(item: Y.Item): { collection: Collection; id: string; field: string | null; record: Y.Map<unknown> | null } | null {
  const parent = item.parent;
  if (!(parent instanceof Y.AbstractType) || item.parentSub === null) return null;
  if (parent._item === null) {
    const collection = Y.findRootTypeKey(parent);
    if (!COLLECTION_NAMES.has(collection)) return null;
    const record = !item.deleted && item.content instanceof Y.ContentType && item.content.type instanceof Y.Map ? item.content.type : null;
    return { collection: collection as Collection, id: item.parentSub, field: null, record };
  }
  const holder = parent._item.parent;
  if (!(holder instanceof Y.AbstractType) || holder._item !== null || parent._item.parentSub === null) return null;
  const collection = Y.findRootTypeKey(holder);
  if (!COLLECTION_NAMES.has(collection) || !(parent instanceof Y.Map)) return null;
  const record = parent._item.deleted ? null : (parent as Y.Map<unknown>);
  return { collection: collection as Collection, id: parent._item.parentSub, field: item.parentSub, record };
}

/**
 * What this device wrote that the server never acknowledged: the items of its own client ids
 * past the clocks the server acknowledged (save-tracker.ts), grouped by record and read back
 * from the record's map as this device has it (not from whatever the collection shows under
 * the id now: a document the server's state was merged into may show the server's). A
 * deletion alone writes no item, so a record only deleted here, and not written here since
 * the last acknowledgement, is not among them.
 */
export function unsentChanges(doc: Y.Doc, acknowledged: Map<number, number>): CarriedChange[] {
  const touched = new Map<string, Touched>();
  for (const [client, from] of acknowledged) {
    for (const struct of doc.store.clients.get(client) ?? []) {
      if (!(struct instanceof Y.Item) || struct.id.clock + struct.length <= from) continue;
      const place = placeOf(struct);
      if (!place || !isEntityId(place.id)) continue;
      const key = `${place.collection}/${place.id}`;
      let entry = touched.get(key);
      if (!entry) touched.set(key, (entry = { collection: place.collection, id: place.id, whole: false, fields: new Set(), record: null }));
      if (place.field === null) entry.whole = true;
      else entry.fields.add(place.field);
      // The newest of its maps (a client's items are in clock order).
      if (place.record) entry.record = place.record;
      else if (place.field === null) entry.record = null;
    }
  }
  const changes: CarriedChange[] = [];
  for (const { collection, id, whole, fields, record } of touched.values()) {
    if (!record || record._item?.deleted) {
      // Made here and deleted here: the server never had it, so there is nothing to delete.
      if (!whole) changes.push({ kind: 'delete', collection, id });
      continue;
    }
    const shape = entityShape(collection, id, record);
    if (shape.kind !== 'entity') continue;
    const own = whole ? shape.fields : Object.fromEntries(Object.entries(shape.fields).filter(([field]) => fields.has(field)));
    if (Object.keys(own).length > 0) changes.push({ kind: whole ? 'record' : 'fields', collection, id, fields: own });
  }
  return changes;
}

/**
 * Writes carried changes into `doc` as this device's own changes (one transaction): a record
 * whole; fields only into a record the document has (an edit of a record deleted meanwhile is
 * lost, as Yjs loses it); a deletion only of a record it has. The server's rules then judge
 * them as any change.
 */
export function applyCarriedChanges(doc: Y.Doc, changes: CarriedChange[]): void {
  doc.transact(() => {
    for (const change of changes) {
      const exists = collectionMap(doc, change.collection).get(change.id) instanceof Y.Map;
      if (change.kind === 'delete') {
        if (exists) deleteEntity(doc, change.collection, change.id);
      } else if (change.kind === 'record' || exists) {
        writeEntity(doc, change.collection, change.id, change.fields);
      }
    }
  }, LOCAL_ORIGIN);
}

function isCarriedChange(value: unknown): value is CarriedChange {
  if (typeof value !== 'object' || value === null) return false;
  const change = value as Record<string, unknown>;
  if (typeof change.collection !== 'string' || !COLLECTION_NAMES.has(change.collection) || typeof change.id !== 'string') return false;
  if (change.kind === 'delete') return true;
  return (change.kind === 'record' || change.kind === 'fields') && typeof change.fields === 'object' && change.fields !== null;
}

/** The changes kept for the next document (a device whose document was replaced), oldest first. */
export async function readCarryOver(db: RanchDb): Promise<CarriedChange[]> {
  const value = (await db.meta.get(CARRY_OVER_KEY))?.value;
  return Array.isArray(value) ? value.filter(isCarriedChange) : [];
}

/**
 * Adds changes to those kept for the next document, with the epoch the server named (null:
 * not known, after a 4409) and `alsoForget`: meta keys that belonged to the old document.
 */
export function keepCarryOver(db: RanchDb, changes: CarriedChange[], epoch: string | null, alsoForget: string[] = []): Promise<void> {
  return db.transaction('rw', db.meta, async () => {
    const kept = await readCarryOver(db);
    await db.meta.put({ key: CARRY_OVER_KEY, value: [...kept, ...changes] });
    if (epoch !== null) await db.meta.put({ key: NEXT_EPOCH_KEY, value: epoch });
    if (alsoForget.length > 0) await db.meta.bulkDelete(alsoForget);
  });
}

/**
 * The epoch a document that records none holds state of: the one named when the last was
 * replaced (the outbox's writes go into the next document before it first syncs), else
 * the first epoch's ('').
 */
export async function unrecordedEpoch(db: RanchDb): Promise<string> {
  const value = (await db.meta.get(NEXT_EPOCH_KEY))?.value;
  return typeof value === 'string' ? value : INITIAL_EPOCH;
}

export async function forgetCarryOver(db: RanchDb): Promise<void> {
  await db.meta.bulkDelete([CARRY_OVER_KEY, NEXT_EPOCH_KEY]);
}
