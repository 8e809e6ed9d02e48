import * as Y from 'yjs';
import { findInUpdate, indexStructs, type Struct } from './update-structs.ts';

/**
 * An update that builds on items the server has not received: Yjs would keep its unplaced
 * part aside (pending) without judging it, and send it to every new device. It is not applied;
 * the server asks the device for everything it lacks instead (sync step 1).
 */
export class UpdateWaitsError extends Error {}

/**
 * Whether applying the update would leave any of it waiting in Yjs (`pendingStructs` or
 * `pendingDs`): an item after a gap in its client's clocks, one whose left or right neighbour
 * or parent neither the document nor the update holds (or only through a forged cycle), or a
 * deletion of what neither holds. Mirrors how Yjs integrates an update (a client's items in
 * clock order, another client's only once present) without applying it. Iterative: each
 * struct is looked at a bounded number of times.
 */
export function waitsForMissing(structs: Struct[], deletions: ReturnType<typeof Y.decodeUpdate>['ds'], doc: Y.Doc): boolean {
  const index = indexStructs(structs);
  const states = new Map<number, number>();
  const state = (client: number): number => {
    let known = states.get(client);
    if (known === undefined) states.set(client, (known = Y.getState(doc.store, client)));
    return known;
  };
  const placed = new Set<Y.Item | Y.GC>();
  const walking = new Set<Y.Item | Y.GC>();

  /** The first thing `struct` waits for: null (nothing), 'missing', or a struct of the update not yet placed. */
  const waitsFor = (struct: Y.Item | Y.GC): Y.Item | Y.GC | 'missing' | null => {
    const { client, clock } = struct.id;
    const known = state(client);
    if (clock + struct.length <= known) return null; // the document has it: Yjs skips it
    if (clock > known) {
      const previous = findInUpdate(index, Y.createID(client, clock - 1));
      if (!previous) return 'missing';
      if (!placed.has(previous)) return previous;
    }
    if (!(struct instanceof Y.Item)) return null;
    const parent: unknown = struct.parent;
    return (
      refersTo(struct.origin, client, clock) ??
      refersTo(struct.rightOrigin, client, clock) ??
      refersTo(parent instanceof Y.ID ? parent : null, client, clock)
    );
  };
  /** What a reference of an item (`client`, `clock`) waits for, as waitsFor answers. */
  const refersTo = (ref: Y.ID | null, client: number, clock: number): Y.Item | Y.GC | 'missing' | null => {
    if (!ref) return null;
    // Its own client's earlier items are placed before it (a later one is forged: refuseInconsistent refuses it first).
    if (ref.client === client) return ref.clock >= clock ? 'missing' : null;
    if (ref.clock < state(ref.client)) return null;
    const target = findInUpdate(index, ref);
    if (!target) return 'missing';
    return placed.has(target) ? null : target;
  };

  const stack: (Y.Item | Y.GC)[] = [];
  for (const list of index.values()) {
    for (const start of list) {
      if (placed.has(start)) continue;
      stack.push(start);
      while (stack.length > 0) {
        const top = stack[stack.length - 1]!;
        if (placed.has(top)) {
          stack.pop();
          continue;
        }
        walking.add(top);
        const next = waitsFor(top);
        if (next === 'missing') return true;
        if (next === null) {
          placed.add(top);
          walking.delete(top);
          stack.pop();
        } else if (walking.has(next)) {
          return true; // a cycle: Yjs would keep all of it pending
        } else {
          stack.push(next);
        }
      }
    }
  }

  // Deletions apply to what the document holds once the update is in; the rest would wait.
  for (const [client, ranges] of deletions.clients) {
    const list = index.get(client);
    const last = list?.[list.length - 1];
    const reach = Math.max(state(client), last ? last.id.clock + last.length : 0);
    for (const range of ranges) if (range.clock + range.len > reach) return true;
  }
  return false;
}
