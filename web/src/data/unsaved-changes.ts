import * as Y from 'yjs';
import type { SaveTracker } from './save-tracker.ts';

/**
 * How many records (a horse, a sale, a payment…) have changes made on this device that the
 * server has not acknowledged: the number "Clear Local Data" would lose. Field writes are
 * grouped by the record they belong to, so one horse added offline counts once.
 */
export function countUnsavedRecords(doc: Y.Doc, tracker: Pick<SaveTracker, 'acknowledgedClocks'>): number {
  const acknowledged = tracker.acknowledgedClocks();
  const local = Y.decodeStateVector(Y.encodeStateVector(doc));
  // Everything of other clients counts as known; only our own unacknowledged writes remain.
  const since = new Map<number, number>();
  for (const [client, clock] of local) since.set(client, acknowledged.get(client) ?? clock);
  const { structs } = Y.decodeUpdate(Y.encodeStateAsUpdate(doc, Y.encodeStateVector(since)));
  const records = new Set<string>();
  for (const struct of structs) {
    if (!(struct instanceof Y.Item)) continue;
    const key = recordKey(doc, struct.id);
    records.add(key ?? `item:${struct.id.client}:${struct.id.clock}`);
  }
  return records.size;
}

/** `collection/id` of the record an item belongs to, read from the integrated document. */
function recordKey(doc: Y.Doc, id: Y.ID): string | null {
  try {
    const item = Y.getItem(doc.store, id);
    if (!(item instanceof Y.Item)) return null;
    const parent = item.parent;
    if (!(parent instanceof Y.AbstractType)) return null;
    // A new record: the entity map set directly on the collection.
    if (parent._item === null) return `${Y.findRootTypeKey(parent)}/${item.parentSub ?? ''}`;
    // A field of a record: the entity map's own key in its collection.
    const collection = parent._item.parent;
    if (!(collection instanceof Y.AbstractType)) return null;
    return `${Y.findRootTypeKey(collection)}/${parent._item.parentSub ?? ''}`;
  } catch {
    return null;
  }
}
