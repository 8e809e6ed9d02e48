import * as Y from 'yjs';
import {
  COLLECTION_NOUN,
  type Collection,
  DEVICE_TIME_FIELD,
  DOC_COLLECTIONS,
  isEntityId,
  MOVED_TO_LEDGER,
  RECORD_FIELDS,
} from '../../../shared/index.ts';
import { RefusedUpdateError } from './update-guard.ts';
import { findInDoc, findInUpdate, indexStructs, type Struct, type StructIndex } from './update-structs.ts';

/**
 * The longest map key or top-level name an update may bring (UTF-8 bytes). The layout's own
 * keys are record ids (36) and field names (under 20); Yjs keeps the name of every key it ever
 * held in every later state, deleted or not, so an unbounded key would grow the document for good.
 */
export const MAX_KEY_BYTES = 64;

/**
 * The top-level names an update may bring: the document's collections, and those of the old
 * layout (sales, payments, corrections), whose records a device or stock client of layout 2 still
 * writes and the document host takes in as ledger entries (ledger/old-layout.ts).
 */
const ACCEPTED_COLLECTIONS: readonly Collection[] = [...DOC_COLLECTIONS, ...MOVED_TO_LEDGER];
const KNOWN_ROOTS: ReadonlySet<string> = new Set(ACCEPTED_COLLECTIONS);

/** The keys a record of each collection may hold: its fields, `id` and the device's time ([T5]). */
const RECORD_KEYS = new Map<string, ReadonlySet<string>>(
  ACCEPTED_COLLECTIONS.map((collection) => [collection, new Set([...RECORD_FIELDS[collection], 'id', DEVICE_TIME_FIELD])]),
);
/** Every key some record may hold: what a key under a record that is already gone is judged against. */
const ANY_RECORD_KEY: ReadonlySet<string> = new Set([...RECORD_KEYS.values()].flatMap((keys) => [...keys]));

/**
 * Where an item of an update would be placed, judged as Yjs will place it:
 * - `root`: directly in a top-level type (`name`): a record, under its id;
 * - `record`: in a shared type that is a value of top-level type `root` (`map`: a Y.Map, as a
 *   record is; anything else there is not a record, and the compensation replaces it whole);
 * - `field`: in a shared type someone put in a record's field (the compensation removes it);
 * - `gone`: its parent was deleted and collected, so Yjs keeps nothing of it but a clock range;
 * - `unknown`: neither the update nor the document holds its parent (the update waits: update-completeness.ts).
 */
type Place =
  | { kind: 'root'; name: string }
  | { kind: 'record'; root: string; map: boolean }
  | { kind: 'field' }
  | { kind: 'gone' }
  | { kind: 'unknown' };
/** An item's place and the key it sits under in a map (null: list content), as Yjs would integrate it. */
type Where = { place: Place; key: string | null };

const GONE: Where = { place: { kind: 'gone' }, key: null };
const UNKNOWN: Where = { place: { kind: 'unknown' }, key: null };

/** The place of what a shared type (`map`: a Y.Map) holds, given the place of the item that holds it. */
function inside(place: Place, map: boolean): Place {
  switch (place.kind) {
    case 'root':
      return { kind: 'record', root: place.name, map };
    case 'record':
    case 'field':
      return { kind: 'field' };
    default:
      return place;
  }
}

/**
 * Refuses (RefusedUpdateError, before it is applied, inside the host's queue so `doc` is
 * current) an update that would add to the document a name the layout has no place for:
 * a top-level type other than the collections; a key under a collection that is not a record
 * id; a key in a record that is not one of its fields, `id` or `updatedAt`; any key inside a
 * shared type held by a field; list content in a collection or a record's map; any key longer than
 * MAX_KEY_BYTES. Only items the document has not seen are judged, each where Yjs will put it:
 * an item names its parent (a top-level name, or the id of the item holding a nested type) or
 * takes its parent and key from its left or right neighbour; either may be in the update or
 * in the document. Iterative and memoised, so no input makes it recurse or go quadratic.
 */
export function refuseOutsideLayout(structs: Struct[], doc: Y.Doc): void {
  const resolver = new Placement(indexStructs(structs), doc);
  for (const struct of structs) {
    if (!(struct instanceof Y.Item) || struct.id.clock < Y.getState(doc.store, struct.id.client)) continue;
    const key = struct.parentSub;
    if (key !== null && Buffer.byteLength(key) > MAX_KEY_BYTES) refuse(`a key longer than ${MAX_KEY_BYTES} bytes`);
    if (typeof struct.parent === 'string' && !KNOWN_ROOTS.has(struct.parent)) refuse(`${shown(struct.parent)} is not a collection`);
    const where = resolver.where(struct);
    const place = where.place;
    switch (place.kind) {
      case 'root':
        if (!KNOWN_ROOTS.has(place.name)) refuse(`${shown(place.name)} is not a collection`);
        if (where.key === null) refuse(`list content in ${place.name}`);
        if (key !== null && !isEntityId(key)) refuse(`${shown(key)} in ${place.name} is not a record id`);
        break;
      case 'record': {
        const keys = RECORD_KEYS.get(place.root);
        if (!keys) refuse(`${shown(place.root)} is not a collection`);
        // List content in a record's map: Y.Map never shows it, so the compensation would never remove it.
        if (where.key === null && place.map) refuse(`list content in a record of ${place.root}`);
        if (key !== null && !keys.has(key)) refuse(`${shown(key)} is not a field of a ${COLLECTION_NOUN[place.root as Collection]}`);
        break;
      }
      case 'field':
        if (key !== null) refuse(`a key (${shown(key)}) inside a record's field`);
        break;
      case 'gone':
        // Yjs keeps only a clock range of it; judged by what any record may hold all the same.
        if (key !== null && !isEntityId(key) && !ANY_RECORD_KEY.has(key)) refuse(`${shown(key)} is not a field of any record`);
        break;
      case 'unknown':
        break; // not placed now: the update is not applied until what it builds on is here
    }
  }
}

function refuse(detail: string): never {
  throw new RefusedUpdateError(`Outside the document layout: ${detail}`);
}

/** A name as a refusal shows it: quoted, at most 24 characters. */
function shown(name: string): string {
  return JSON.stringify(name.length > 24 ? `${name.slice(0, 24)}…` : name);
}

/**
 * An item placed by another item of the update: inside the type that `next` holds (`nested`,
 * under `key`), or beside `next` (same place and key).
 */
type Step = { next: Y.Item; key: string | null; nested: boolean; map: boolean };

/** Places the items of one update (see refuseOutsideLayout), memoised per item. */
class Placement {
  private readonly placed = new Map<Y.Item, Where>();
  private rootNames: Map<unknown, string> | null = null;

  constructor(
    private readonly index: StructIndex,
    private readonly doc: Y.Doc,
  ) {}

  /** Where `item` would go, following the items of the update it depends on without recursion. */
  where(item: Y.Item): Where {
    const known = this.placed.get(item);
    if (known) return known;
    const first = this.step(item);
    if (!('next' in first)) {
      this.placed.set(item, first);
      return first;
    }
    // Most others: the item they depend on (a record's map before its fields) is placed already.
    const placedNext = this.placed.get(first.next);
    if (placedNext) {
      const found = first.nested ? this.nest(placedNext, first) : placedNext;
      this.placed.set(item, found);
      return found;
    }
    const chain: (Step & { item: Y.Item })[] = [{ ...first, item }];
    const walking = new Set<Y.Item>([item]);
    let current = first.next;
    let found: Where;
    for (;;) {
      const known = this.placed.get(current);
      if (known) {
        found = known;
        break;
      }
      if (walking.has(current)) {
        found = UNKNOWN; // a forged cycle: Yjs would never place it
        break;
      }
      walking.add(current);
      const step = this.step(current);
      if (!('next' in step)) {
        found = step;
        this.placed.set(current, step);
        break;
      }
      chain.push({ ...step, item: current });
      current = step.next;
    }
    // Unwind: each walked item is placed from the item it depended on.
    for (let at = chain.length - 1; at >= 0; at--) {
      const step = chain[at]!;
      if (step.nested) found = this.nest(found, step);
      this.placed.set(step.item, found);
    }
    return found;
  }

  /** Where an item goes inside the type held by an item placed at `holder`. */
  private nest(holder: Where, step: Step): Where {
    if (holder.place.kind === 'unknown' || holder.place.kind === 'gone') return holder;
    return { place: inside(holder.place, step.map), key: step.key };
  }

  /** The item's place when the document alone decides it, or the update's item it depends on. */
  private step(item: Y.Item): Where | Step {
    const parent: unknown = item.parent;
    if (typeof parent === 'string') return { place: { kind: 'root', name: parent }, key: item.parentSub };
    if (parent instanceof Y.ID) {
      const holder = this.find(parent);
      if (!holder) return UNKNOWN;
      if (!(holder.struct instanceof Y.Item) || !(holder.struct.content instanceof Y.ContentType)) return GONE;
      const map = holder.struct.content.type instanceof Y.Map;
      if (holder.inUpdate) return { next: holder.struct, key: item.parentSub, nested: true, map };
      const place = this.placeIn(holder.struct.parent);
      return place.kind === 'gone' ? GONE : { place: inside(place, map), key: item.parentSub };
    }
    // No parent written: Yjs takes the parent and key of the left neighbour, else the right one.
    const left = item.origin ? this.find(item.origin) : null;
    const right = item.rightOrigin ? this.find(item.rightOrigin) : null;
    if ((item.origin && !left) || (item.rightOrigin && !right)) return UNKNOWN;
    if (left?.struct instanceof Y.GC || right?.struct instanceof Y.GC) return GONE;
    const neighbour = left ?? right;
    if (!neighbour) return GONE;
    const struct = neighbour.struct as Y.Item;
    if (neighbour.inUpdate) return { next: struct, key: null, nested: false, map: false };
    const place = this.placeIn(struct.parent);
    return place.kind === 'gone' ? GONE : { place, key: struct.parentSub };
  }

  /** Where the items of an integrated type go. */
  private placeIn(type: unknown): Place {
    if (!(type instanceof Y.AbstractType)) return { kind: 'gone' };
    const parent = type.parent;
    if (parent === null) return { kind: 'root', name: this.rootName(type) };
    if (parent.parent === null) return { kind: 'record', root: this.rootName(parent), map: type instanceof Y.Map };
    return { kind: 'field' };
  }

  private rootName(type: unknown): string {
    this.rootNames ??= new Map([...this.doc.share].map(([name, root]) => [root, name]));
    return this.rootNames.get(type) ?? '';
  }

  /** The struct covering `id`: the document's when it has seen it, else the update's. */
  private find(id: Y.ID): { struct: Y.Item | Y.GC; inUpdate: boolean } | null {
    const inDoc = findInDoc(this.doc, id);
    if (inDoc) return { struct: inDoc, inUpdate: false };
    const inUpdate = findInUpdate(this.index, id);
    return inUpdate ? { struct: inUpdate, inUpdate: true } : null;
  }
}
