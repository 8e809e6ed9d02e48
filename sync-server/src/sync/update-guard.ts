import * as Y from 'yjs';
import { findInDoc, findInUpdate, indexStructs, type Struct } from './update-structs.ts';

/**
 * How deep shared types may nest in an update: a collection's entity map (1) and a shared
 * type someone put in one of its fields (2), which the compensation then removes. The layout
 * has no deeper types; Yjs collects a deleted chain of nested types recursively, so a chain
 * thousands deep would overflow the stack when the compensation deletes it.
 */
export const MAX_TYPE_DEPTH = 2;

/** An update the document layout cannot hold; the sender's socket is closed with 4400. */
export class RefusedUpdateError extends Error {}

/**
 * Refuses an update (before it is applied, inside the host's queue so `doc` is current) that
 * nests shared types deeper than MAX_TYPE_DEPTH, counting the types it nests into that the
 * document already holds. Iterative and memoised: no input makes it recurse or go quadratic.
 */
export function refuseDeepNesting(structs: Struct[], doc: Y.Doc): void {
  const index = indexStructs(structs);
  const find = (id: Y.ID): Y.Item | null => {
    const struct = findInUpdate(index, id) ?? findInDoc(doc, id);
    return struct instanceof Y.Item ? struct : null;
  };
  const containers = new Map<Y.Item, Y.Item | 'root' | null>();

  /** The item holding the shared type `item` lives in ('root' for a top-level type; null: unknown). */
  const containerOf = (item: Y.Item): Y.Item | 'root' | null => {
    const walked: Y.Item[] = [];
    let current: Y.Item | null = item;
    let found: Y.Item | 'root' | null = null;
    while (current) {
      const known = containers.get(current);
      if (known !== undefined) {
        found = known;
        break;
      }
      walked.push(current);
      const parent: unknown = current.parent;
      // Decoded updates name a top-level parent by its name; the document's items hold the type.
      if (typeof parent === 'string') {
        found = 'root';
        break;
      }
      if (parent instanceof Y.AbstractType) {
        found = parent._item ?? 'root';
        break;
      }
      if (parent instanceof Y.ID) {
        found = find(parent);
        break;
      }
      // No parent info: the item sits next to its origin, in the same type.
      const next: Y.ID | null = current.origin ?? current.rightOrigin;
      current = next ? find(next) : null;
      if (current && walked.includes(current)) break;
    }
    for (const seen of walked) containers.set(seen, found);
    return found;
  };

  for (const struct of structs) {
    if (!(struct instanceof Y.Item) || !(struct.content instanceof Y.ContentType)) continue;
    let depth = 1;
    for (let container = containerOf(struct); container instanceof Y.Item; container = containerOf(container)) {
      if (++depth > MAX_TYPE_DEPTH) throw new RefusedUpdateError(`Shared types nest deeper than ${MAX_TYPE_DEPTH} levels`);
    }
  }
}

/**
 * Refuses an update that creates more than `max` entities (new keys under the top-level
 * types): what the compensation would have to delete grows with it, and Yjs's merging of many
 * deleted items is quadratic (tens of thousands of invalid horses in one update would hold
 * the document for many seconds).
 * A key's first item carries its parent and key; later values of a key refer to their origin.
 */
export function refuseOversized(structs: Struct[], max: number): void {
  let created = 0;
  for (const struct of structs) {
    if (!(struct instanceof Y.Item) || struct.parentSub === null) continue;
    // A decoded update names a top-level parent by its name.
    if (typeof struct.parent === 'string' && ++created > max) {
      throw new RefusedUpdateError(`An update may create at most ${max} records`);
    }
  }
}

/**
 * Refuses an update whose items point forward in their own client's history (an origin,
 * right origin or parent at or after the item's own clock). Yjs integrates a client's items
 * in clock order and takes such references as present: a forged one (the fuzzer flipped a
 * bit) throws halfway through applying, leaving the document half-changed.
 */
export function refuseInconsistent(structs: Struct[]): void {
  for (const struct of structs) {
    if (!(struct instanceof Y.Item)) continue;
    const { client, clock } = struct.id;
    const parent: unknown = struct.parent;
    for (const ref of [struct.origin, struct.rightOrigin, parent instanceof Y.ID ? parent : null]) {
      if (ref && ref.client === client && ref.clock >= clock)
        throw new RefusedUpdateError('An item refers to a later item of its own client');
    }
  }
}
