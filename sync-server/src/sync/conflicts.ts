import * as Y from 'yjs';
import {
  collectionMap,
  COLLECTIONS,
  DEVICE_TIME_FIELD,
  isMoneyField,
  parseFields,
  type Collection,
  type EntityFields,
} from '../../../shared/index.ts';
import type { HistoryStep } from './history.ts';

/** Fields whose writes are never compared ([T6]): ids, the device's time stamp, the creation time. */
const NOT_COMPARED = new Set(['id', DEVICE_TIME_FIELD, 'createdAt']);

/**
 * [T6] One field of an existing entity that a transaction wrote (docs/architecture.md
 * "Conflicts"). `concurrent`: the writer had not seen the value the server held (its first
 * item's origin is not the key's previous item); `won`: the merge kept the incoming value;
 * `value`: the incoming value (its last item's), as the document holds it.
 */
export type FieldWrite = { collection: Collection; id: string; field: string; concurrent: boolean; won: boolean; value: unknown };

type MapType = Y.AbstractType<unknown> & { _map: Map<string, Y.Item> };

/**
 * The field writes of one transaction, read from the Yjs structures while its items still
 * hold their content (before the document collects deleted ones): every item inserted in
 * the transaction (between its before and after state, per client) that is the value of a
 * key of an entity map under a collection map.
 */
export function fieldWrites(transaction: Y.Transaction): FieldWrite[] {
  const { doc, beforeState, afterState } = transaction;
  const inserted = (id: Y.ID) => id.clock >= (beforeState.get(id.client) ?? 0);
  const collections = new Map<unknown, Collection>(COLLECTIONS.map((collection) => [collectionMap(doc, collection), collection]));
  /** entity map → field → that field's inserted items */
  const keys = new Map<MapType, Map<string, Y.Item[]>>();
  for (const [client, clock] of afterState) {
    const before = beforeState.get(client) ?? 0;
    if (clock === before) continue;
    const structs = doc.store.clients.get(client) ?? [];
    for (let index = structs.length - 1; index >= 0; index--) {
      const struct = structs[index]!;
      if (struct.id.clock < before) break;
      if (!(struct instanceof Y.Item) || struct.parentSub === null || !(struct.parent instanceof Y.AbstractType)) continue;
      const entity = struct.parent as MapType;
      const entityItem = entity._item;
      if (!entityItem || entityItem.parentSub === null || entityItem.deleted || inserted(entityItem.id)) continue;
      const collection = collections.get(entityItem.parent);
      if (!collection || (entityItem.parent as MapType)._map.get(entityItem.parentSub) !== entityItem) continue;
      let fields = keys.get(entity);
      if (!fields) keys.set(entity, (fields = new Map()));
      const items = fields.get(struct.parentSub);
      if (items) items.push(struct);
      else fields.set(struct.parentSub, [struct]);
    }
  }
  const writes: FieldWrite[] = [];
  for (const [entity, fields] of keys) {
    const entityItem = entity._item!;
    const collection = collections.get(entityItem.parent)!;
    const id = entityItem.parentSub!;
    for (const [field, items] of fields) {
      if (NOT_COMPARED.has(field)) continue;
      const current = entity._map.get(field) ?? null;
      // The key's value before the transaction: its rightmost item not inserted by it.
      let prev = current;
      while (prev !== null && inserted(prev.id)) prev = prev.left;
      const prevLive = prev !== null && (!prev.deleted || Y.isDeleted(transaction.deleteSet, prev.id));
      // The first item of each chain the writer made: its origin lies outside this transaction.
      const heads = items.filter((item) => item.origin === null || !inserted(item.origin));
      const concurrent = prevLive && heads.some((item) => item.origin === null || !Y.compareIDs(item.origin, (prev as Y.Item).lastId));
      const won = current !== null && inserted(current.id) && !current.deleted;
      // The writer's last value: the rightmost inserted item (the current one, or the first left of prev).
      let last = current !== null && inserted(current.id) ? current : (prev?.left ?? null);
      while (last !== null && !inserted(last.id)) last = last.left;
      const content = last?.content;
      const value = content instanceof Y.ContentAny ? content.getContent()[0] : undefined;
      writes.push({ collection, id, field, concurrent, won, value });
    }
  }
  return writes;
}

/**
 * [T6] Lays a change's field writes onto its history steps: a concurrent write becomes a
 * conflict of its step (the value it lost with, when it lost, checked against the schema
 * first: a value that could not be a field's is no conflict); any other write closes the
 * field's open conflicts. An entity left invalid has no step, so neither.
 */
export function markConflicts(steps: HistoryStep[], writes: FieldWrite[]): void {
  if (writes.length === 0) return;
  const byEntity = new Map(steps.map((step) => [`${step.collection}/${step.id}`, step]));
  for (const write of writes) {
    const step = byEntity.get(`${write.collection}/${write.id}`);
    if (!step?.after) continue;
    if (!write.concurrent) {
      (step.closes ??= []).push(write.field);
      continue;
    }
    if (!write.won) {
      const candidate = { ...step.after, [write.field]: write.value } as EntityFields;
      const parsed = write.value === undefined ? null : parseFields(write.collection, write.id, candidate);
      if (!parsed?.valid) continue;
      step.lost = { ...(step.lost ?? step.after), [write.field]: parsed.record[write.field] ?? null };
    }
    (step.conflicts ??= []).push({ field: write.field, won: write.won, money: isMoneyField(write.collection, write.field) });
  }
}
