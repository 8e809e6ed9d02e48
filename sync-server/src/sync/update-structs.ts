import * as Y from 'yjs';

/** One struct of a decoded update (Y.decodeUpdate): an item, a garbage-collected range, or a gap. */
export type Struct = Y.Item | Y.GC | Y.Skip;

/** The structs of an update that hold something (items and collected ranges, not gaps), per client, by clock. */
export type StructIndex = Map<number, (Y.Item | Y.GC)[]>;

export function indexStructs(structs: Struct[]): StructIndex {
  const byClient: StructIndex = new Map();
  for (const struct of structs) {
    if (struct instanceof Y.Skip) continue;
    const list = byClient.get(struct.id.client);
    if (list) list.push(struct);
    else byClient.set(struct.id.client, [struct]);
  }
  for (const list of byClient.values()) list.sort((a, b) => a.id.clock - b.id.clock);
  return byClient;
}

/** The update's struct covering `id` (binary search in its client's structs). */
export function findInUpdate(index: StructIndex, id: Y.ID): Y.Item | Y.GC | null {
  const list = index.get(id.client);
  if (!list) return null;
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const struct = list[middle]!;
    if (id.clock < struct.id.clock) high = middle - 1;
    else if (id.clock >= struct.id.clock + struct.length) low = middle + 1;
    else return struct;
  }
  return null;
}

/** The document's struct covering `id`, or null when the document has not seen it. */
export function findInDoc(doc: Y.Doc, id: Y.ID): Y.Item | Y.GC | null {
  if (Y.getState(doc.store, id.client) <= id.clock) return null;
  return Y.getItem(doc.store, id) as Y.Item | Y.GC;
}
