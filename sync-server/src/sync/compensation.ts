import * as Y from 'yjs';
import {
  collectionMap,
  COLLECTION_NOUN,
  entityShape,
  isEntityId,
  RECORD_FIELDS,
  RECORD_SCHEMAS,
  REFERENCES,
  writeEntity,
  type Collection,
  type CompensationNotice,
  type EntityChanges,
  type EntityFields,
  type JsonValue,
} from '../../../shared/index.ts';
import { WHOLE, type Edits } from './edits.ts';
import { entityKey, type ReferenceIndex } from './references.ts';
import { strayContent } from './stray-roots.ts';
import { checkEntity, checkFields, type Verdict } from './validation.ts';

/**
 * A write that undoes what a change may not do (docs/sync-rules.md):
 * - `remove`: the key goes (not an entity id, or an entity that was never valid);
 * - `write`: fields written back to their last valid values, `drop`: fields deleted (unknown
 *   ones, or ones holding what no field may hold); `restored`: the entity had gone or was not
 *   a map, and comes back whole;
 * - `clear`: everything under a top-level type that is not a collection (or the list content
 *   of a collection's map) is deleted.
 */
export type Compensation =
  | { kind: 'remove'; collection: Collection; id: string; reason: string }
  | { kind: 'write'; collection: Collection; id: string; fields: EntityFields; drop: string[]; restored: boolean; reason: string }
  | { kind: 'clear'; root: string; listOnly: boolean };

/** Last valid fields of entities by `collection/id` (from earlier in the batch, the projection, or a tombstone). */
export type LastValid = Map<string, Record<string, unknown>>;

/** Reads the last valid states of entities that the batch has not seen valid: projection rows, else tombstones. */
export type LastValidSource = (collection: Collection, ids: string[]) => Promise<Map<string, Record<string, unknown>>>;

/** What a change did to the entities it touched, as the document host observed it. */
export type ChangeContext = {
  changes: EntityChanges;
  /** The fields the change edited in entities that existed before it (edits.ts). */
  edits: Edits;
};

/** Records and fields a change may create but never alter afterwards (REST has no PUT or DELETE for them). */
const CREATE_ONLY: ReadonlySet<Collection> = new Set(['sales', 'payments', 'corrections']);
/** Fields of a record no change alters once it exists (REST keeps them too: careEntryEdit). */
const FIXED_FIELDS: Partial<Record<Collection, readonly string[]>> = {
  careEntries: ['recordedBy', 'recordedByName', 'createdAt'],
};
const fixedFields = (collection: Collection): readonly string[] => FIXED_FIELDS[collection] ?? ['createdAt'];
/** [K1] Fields naming who made a record: on creation they are the sender's (REST sets them from the session). */
const AUTHOR_FIELDS: Partial<Record<Collection, { id: string; name: string }>> = {
  careEntries: { id: 'recordedBy', name: 'recordedByName' },
};

/**
 * The person whose device sent the change (origin.ts), and how to read their name from the
 * user table (publicName), asked only when the change creates a record with author fields.
 */
export type Author = { userId: string; name: () => Promise<string> };
/** How often one entity may be settled again in one plan (each removal re-settles what referred to it). */
const MAX_VISITS = 8;

/** Records the entities of `changes` that are valid now, as the newest valid state. */
export function rememberValid(doc: Y.Doc, changes: EntityChanges, into: LastValid): void {
  for (const [collection, ids] of changes) {
    for (const id of ids) {
      const verdict = checkEntity(doc, collection, id);
      if (verdict.state === 'valid') into.set(entityKey(collection, id), verdict.record);
    }
  }
}

/**
 * Decides how the server answers a change that would leave the ranch invalid or break a rule
 * REST keeps (docs/architecture.md "Validation of synced data", docs/sync-rules.md). Every
 * decision is taken against the document with the planned writes laid over it, never against
 * the projection, which lags the batch. Never throws on what a client wrote: values are read
 * one level deep (entity-shape.ts), and every loop is bounded.
 */
export async function planCompensations(
  doc: Y.Doc,
  context: ChangeContext,
  references: ReferenceIndex,
  source: LastValidSource,
  lastValid: LastValid = new Map(),
  author?: Author,
): Promise<Compensation[]> {
  const planner = new Planner(doc, references, source, lastValid, context.edits, author);
  await planner.settleAll(context.changes);
  return [...strayContent(doc), ...planner.plans()];
}

type Entry = {
  collection: Collection;
  id: string;
  /** The entity's scalar fields once the planned writes are made. */
  fields: EntityFields;
  written: Set<string>;
  dropped: Set<string>;
  removed: boolean;
  /** The document holds something else than a map of fields under its key. */
  malformed: boolean;
  /** Gone or malformed, and planned back whole from its last valid state. */
  restored: boolean;
  reasons: string[];
};

/** The planned writes, and the document as it will be once they are made. */
class Planner {
  private readonly planned = new Map<string, Entry>();
  /** Target key → planned entries whose written fields name it (the reference index knows only the document). */
  private readonly plannedReferrers = new Map<string, Set<Entry>>();
  private readonly visits = new Map<string, number>();
  private readonly queue: [Collection, string][] = [];
  private readonly fetched = new Map<string, Record<string, unknown> | null>();
  /** needsLook of present entities as first seen (before anything was planned), so the first settle does not check again. */
  private readonly glanced = new Map<string, boolean>();

  constructor(
    private readonly doc: Y.Doc,
    private readonly references: ReferenceIndex,
    private readonly source: LastValidSource,
    private readonly lastValid: LastValid,
    private readonly edits: Edits,
    private readonly author: Author | undefined,
  ) {}

  private authorName: Promise<string> | undefined;

  /** A record this change creates (present, and no edit of one that existed) with fields naming its author. */
  private authored(collection: Collection, id: string): boolean {
    return this.author !== undefined && AUTHOR_FIELDS[collection] !== undefined && !this.edits.has(entityKey(collection, id));
  }

  private readonly exists = (collection: Collection, id: string): boolean => {
    const entry = this.planned.get(entityKey(collection, id));
    return entry ? !entry.removed : collectionMap(this.doc, collection).has(id);
  };

  /**
   * Settles every changed entity: gone ones first (one that a change both names and deletes
   * comes back, and the naming stands), then present ones; a removal re-queues whoever
   * referred to what it removed.
   */
  async settleAll(changes: EntityChanges): Promise<void> {
    const present: [Collection, string][] = [];
    const gone: [Collection, string][] = [];
    for (const [collection, ids] of changes) {
      for (const id of ids) (collectionMap(this.doc, collection).has(id) ? present : gone).push([collection, id]);
    }
    await this.prefetch([...gone, ...present].filter(([collection, id]) => this.mayNeedLast(collection, id)));
    this.queue.push(...gone, ...present);
    // An index, not shift(): the queue can hold every entity of the ranch (the load check).
    for (let at = 0; at < this.queue.length; at++) {
      const next = this.queue[at]!;
      const key = entityKey(...next);
      const visits = (this.visits.get(key) ?? 0) + 1;
      this.visits.set(key, visits);
      if (visits <= MAX_VISITS) await this.settle(...next);
    }
  }

  /** Whether settling the entity may ask for its last valid state (then it is read with the others, in one query per collection). */
  private mayNeedLast(collection: Collection, id: string): boolean {
    if (!isEntityId(id)) return false;
    if (!collectionMap(this.doc, collection).has(id)) return CREATE_ONLY.has(collection) || this.references.isReferenced(collection, id);
    const needed = this.needsLook(collection, id);
    this.glanced.set(entityKey(collection, id), needed);
    return needed;
  }

  /**
   * Whether a present entity needs more than a glance: it is malformed or invalid (with the
   * planned writes laid over the document), or a rule about how it may change applies to this
   * edit. A valid new entity, or a valid edit of a horse, costs no query.
   */
  private needsLook(collection: Collection, id: string): boolean {
    if (this.planned.has(entityKey(collection, id))) return true;
    const edited = this.edits.get(entityKey(collection, id));
    if (edited && (CREATE_ONLY.has(collection) || edited.has(WHOLE) || fixedFields(collection).some((field) => edited.has(field))))
      return true;
    if (this.authored(collection, id)) return true;
    const shape = entityShape(collection, id, collectionMap(this.doc, collection).get(id));
    return shape.kind !== 'entity' || shape.strays.length > 0 || checkFields(collection, id, shape.fields, this.exists).state === 'invalid';
  }

  private async prefetch(wanted: [Collection, string][]): Promise<void> {
    const byCollection = new Map<Collection, string[]>();
    for (const [collection, id] of wanted) {
      if (this.lastValid.has(entityKey(collection, id)) || this.fetched.has(entityKey(collection, id))) continue;
      const ids = byCollection.get(collection);
      if (ids) ids.push(id);
      else byCollection.set(collection, [id]);
    }
    for (const [collection, ids] of byCollection) {
      const found = await this.source(collection, ids);
      for (const id of ids) this.fetched.set(entityKey(collection, id), found.get(id) ?? null);
    }
  }

  private async last(collection: Collection, id: string): Promise<Record<string, unknown> | undefined> {
    const key = entityKey(collection, id);
    const known = this.lastValid.get(key);
    if (known) return known;
    if (!isEntityId(id)) return undefined;
    if (!this.fetched.has(key)) await this.prefetch([[collection, id]]);
    return this.fetched.get(key) ?? undefined;
  }

  /** The entity's planned entry, made from the document the first time. */
  private entry(collection: Collection, id: string): Entry {
    const key = entityKey(collection, id);
    let entry = this.planned.get(key);
    if (!entry) {
      const shape = entityShape(collection, id, collectionMap(this.doc, collection).get(id));
      entry = {
        collection,
        id,
        fields: shape.kind === 'entity' ? { ...shape.fields } : {},
        written: new Set(),
        dropped: new Set(),
        removed: false,
        malformed: shape.kind !== 'entity' && collectionMap(this.doc, collection).has(id),
        restored: false,
        reasons: [],
      };
      this.planned.set(key, entry);
    }
    return entry;
  }

  private write(entry: Entry, values: Record<string, unknown>, reason: string): void {
    const references = REFERENCES[entry.collection] ?? {};
    for (const [field, value] of Object.entries(values)) {
      if (field === 'id' || value === undefined) continue;
      entry.fields[field] = value as JsonValue;
      entry.written.add(field);
      entry.dropped.delete(field);
      const target = references[field];
      if (target && typeof value === 'string') {
        const key = entityKey(target, value);
        const referrers = this.plannedReferrers.get(key);
        if (referrers) referrers.add(entry);
        else this.plannedReferrers.set(key, new Set([entry]));
      }
    }
    if (!entry.reasons.includes(reason)) entry.reasons.push(reason);
  }

  private remove(entry: Entry, reason: string): void {
    entry.removed = true;
    entry.reasons.push(reason);
    // Whatever referred to it must be settled again: it may dangle now.
    this.queue.push(...this.liveReferrers(entry.collection, entry.id));
  }

  /** Entities that exist (as planned) and still name this one in a reference field. */
  private liveReferrers(collection: Collection, id: string): [Collection, string][] {
    const candidates = this.references.referrersOf(collection, id);
    for (const entry of this.plannedReferrers.get(entityKey(collection, id)) ?? []) candidates.push([entry.collection, entry.id]);
    const seen = new Set<string>();
    return candidates.filter(([referrer, referrerId]) => {
      if (seen.has(entityKey(referrer, referrerId))) return false;
      seen.add(entityKey(referrer, referrerId));
      if (!this.exists(referrer, referrerId)) return false;
      const fields = this.current(referrer, referrerId);
      return Object.entries(REFERENCES[referrer] ?? {}).some(([field, target]) => target === collection && fields?.[field] === id);
    });
  }

  private current(collection: Collection, id: string): EntityFields | undefined {
    const entry = this.planned.get(entityKey(collection, id));
    if (entry) return entry.removed ? undefined : entry.fields;
    const shape = entityShape(collection, id, collectionMap(this.doc, collection).get(id));
    return shape.kind === 'entity' ? shape.fields : undefined;
  }

  private check(entry: Entry): Verdict {
    return checkFields(entry.collection, entry.id, entry.fields, this.exists);
  }

  private async settle(collection: Collection, id: string): Promise<void> {
    if (!isEntityId(id)) {
      if (this.exists(collection, id)) this.remove(this.entry(collection, id), 'Not a record: its key is not an id');
      return;
    }
    if (!this.exists(collection, id)) return this.settleGone(collection, id);
    // The first settle uses the glance taken before planning; whatever planning changed since
    // (a target removed) queues this entity again, and later settles look afresh.
    const glance = this.glanced.get(entityKey(collection, id));
    this.glanced.delete(entityKey(collection, id));
    if (!(glance ?? this.needsLook(collection, id))) return;
    const entry = this.entry(collection, id);
    const last = await this.last(collection, id);
    if (entry.malformed && !entry.restored) {
      // Not a map of fields: it comes back as it last was valid, or goes.
      if (last) await this.restoreInto(entry, last, `Not a ${COLLECTION_NOUN[collection]} record`);
      else this.remove(entry, `Not a ${COLLECTION_NOUN[collection]} record`);
      return;
    }
    this.dropStrays(entry, last);
    if (last) this.keepFixed(entry, last);
    else if (this.authored(collection, id)) await this.stampAuthor(entry);
    const verdict = this.check(entry);
    if (verdict.state !== 'invalid') return;
    if (last) await this.repair(entry, last, verdict);
    else await this.settleNeverValid(entry, verdict);
  }

  /** A gone entity comes back while something refers to it, and a sale or payment always. */
  private async settleGone(collection: Collection, id: string): Promise<void> {
    const referrers = this.liveReferrers(collection, id);
    // Ledger sales name horses and buyers too (ledger/sale-index.ts): they keep them as a document sale does.
    const count = referrers.length + this.references.namedOutside(collection, id);
    if (count > 0) {
      await this.restoreWhole(collection, id, `In use: ${count} ${count === 1 ? 'record refers' : 'records refer'} to it`);
    } else if (CREATE_ONLY.has(collection)) {
      await this.restoreWhole(collection, id, `A ${COLLECTION_NOUN[collection]} cannot be deleted`);
    }
  }

  /** Unknown fields are deleted; `id` is set to the key; an own field holding what no field may hold gets its last valid value, or goes. */
  private dropStrays(entry: Entry, last: Record<string, unknown> | undefined): void {
    const shape = entityShape(entry.collection, entry.id, collectionMap(this.doc, entry.collection).get(entry.id));
    if (shape.kind !== 'entity') return;
    for (const field of shape.strays) {
      if (entry.written.has(field) || entry.dropped.has(field)) continue;
      if (field === 'id') this.write(entry, { id: entry.id }, 'Its id must be its key');
      else if (RECORD_FIELDS[entry.collection].includes(field) && last && field in last)
        this.write(entry, { [field]: last[field] }, `${field}: not a value this field can hold`);
      else {
        entry.dropped.add(field);
        delete entry.fields[field];
        if (!entry.reasons.includes('Fields it may not have were removed')) entry.reasons.push('Fields it may not have were removed');
      }
    }
    if (shape.strays.includes('id')) entry.written.add('id');
  }

  /** Sales and payments are not changed once made (REST has no PUT for them); no record's `createdAt` is, nor a care entry's author. */
  private keepFixed(entry: Entry, last: Record<string, unknown>): void {
    const changed = differing(entry.collection, entry.fields, last);
    const fixed = CREATE_ONLY.has(entry.collection) ? changed : changed.filter((field) => fixedFields(entry.collection).includes(field));
    if (fixed.length === 0) return;
    const reason = CREATE_ONLY.has(entry.collection)
      ? `A ${COLLECTION_NOUN[entry.collection]} cannot be changed once recorded`
      : fixed.every((field) => field === 'createdAt')
        ? 'When a record was created cannot be changed'
        : 'Who recorded it and when cannot be changed';
    this.write(entry, Object.fromEntries(fixed.map((field) => [field, last[field]])), reason);
  }

  /** [K1] A record the change creates names its sender as its author, by their name in the user table. */
  private async stampAuthor(entry: Entry): Promise<void> {
    const fields = AUTHOR_FIELDS[entry.collection];
    if (!fields || !this.author) return;
    this.authorName ??= this.author.name();
    const stamp = { [fields.id]: this.author.userId, [fields.name]: await this.authorName };
    const wrong = Object.entries(stamp).filter(([field, value]) => entry.fields[field] !== value);
    if (wrong.length > 0) this.write(entry, Object.fromEntries(wrong), 'Who recorded it is the person who sent it');
  }

  /** Brings a gone entity back as it last was valid, with whatever that state refers to. */
  private async restoreWhole(collection: Collection, id: string, reason: string): Promise<boolean> {
    if (this.exists(collection, id)) return true;
    const last = await this.last(collection, id);
    if (!last) return false; // never valid: nothing to bring back
    const entry = this.entry(collection, id);
    entry.removed = false;
    await this.restoreInto(entry, last, reason);
    return true;
  }

  private async restoreInto(entry: Entry, last: Record<string, unknown>, reason: string): Promise<void> {
    entry.restored = true;
    entry.fields = {};
    entry.dropped.clear();
    this.write(entry, last, reason);
    await this.restoreTargets(entry.collection, last);
  }

  private async restoreTargets(
    collection: Collection,
    fields: Record<string, unknown>,
    reason = `In use: a restored ${COLLECTION_NOUN[collection]} refers to it`,
  ): Promise<void> {
    for (const [field, target] of Object.entries(REFERENCES[collection] ?? {})) {
      const value = fields[field];
      if (typeof value === 'string' && isEntityId(value)) await this.restoreWhole(target, value, reason);
    }
  }

  /**
   * A deletion yields to a reference: when all that is wrong with an entity is that what it
   * names is gone, that comes back if it was ever valid (a horse given a supplier offline
   * keeps it though the office deleted the supplier meanwhile). Returns the verdict after.
   */
  private async reviveNamed(entry: Entry, verdict: Verdict & { state: 'invalid' }): Promise<Verdict> {
    const targets = REFERENCES[entry.collection] ?? {};
    const dangling = verdict.fields.filter((field) => field in targets);
    if (dangling.length === 0 || dangling.length !== verdict.fields.length) return verdict;
    const named = Object.fromEntries(dangling.map((field) => [field, entry.fields[field]]));
    await this.restoreTargets(entry.collection, named, `In use: a ${COLLECTION_NOUN[entry.collection]} refers to it`);
    return this.check(entry);
  }

  /**
   * Valid before, invalid now: the blamed fields are written back to their last valid values
   * and the entity checked again (one fault can hide another), until it is valid; if the blamed
   * fields are as they were valid, every field that means something else is written back.
   */
  private async repair(entry: Entry, last: Record<string, unknown>, first: Verdict & { state: 'invalid' }): Promise<void> {
    let verdict = await this.reviveNamed(entry, first);
    const restored = new Set<string>();
    while (verdict.state === 'invalid') {
      const changed = differing(entry.collection, entry.fields, last);
      let fields = verdict.fields.filter((field) => field in last && !restored.has(field));
      if (fields.length === 0) fields = changed.filter((field) => !restored.has(field));
      if (fields.length === 0) return; // all of it is as it was valid: what it refers to is gone for good
      fields.forEach((field) => restored.add(field));
      // A blamed field that already means what it meant when valid is left as it is.
      const values = Object.fromEntries(fields.filter((field) => changed.includes(field)).map((field) => [field, last[field]]));
      this.write(entry, values, verdict.problem);
      await this.restoreTargets(entry.collection, values);
      verdict = this.check(entry);
    }
  }

  /** Never valid: what it names comes back if it was ever valid (reviveNamed); if it is still invalid, it goes. */
  private async settleNeverValid(entry: Entry, first: Verdict & { state: 'invalid' }): Promise<void> {
    const verdict = await this.reviveNamed(entry, first);
    if (verdict.state === 'invalid') this.remove(entry, verdict.problem);
  }

  /** The writes that change something, one per entity. */
  plans(): Compensation[] {
    const plans: Compensation[] = [];
    for (const entry of this.planned.values()) {
      const { collection, id } = entry;
      const map = collectionMap(this.doc, collection);
      const reason = entry.reasons.join('; ');
      if (entry.removed) {
        if (map.has(id)) plans.push({ kind: 'remove', collection, id, reason });
        continue;
      }
      const stored = map.get(id);
      const storedMap = stored instanceof Y.Map ? (stored as Y.Map<unknown>) : undefined;
      const changed = storedMap
        ? [...entry.written].filter((field) => storedMap.get(field) !== entry.fields[field] || field === 'id')
        : [...entry.written];
      const drop = storedMap ? [...entry.dropped].filter((field) => storedMap.has(field)) : [];
      if (changed.length === 0 && drop.length === 0 && storedMap) continue;
      const fields = Object.fromEntries(changed.filter((field) => field !== 'id').map((field) => [field, entry.fields[field]!]));
      plans.push({ kind: 'write', collection, id, fields, drop, restored: !storedMap, reason });
    }
    return plans;
  }
}

/**
 * The fields of `fields` that mean something else than in the valid state `last`: a field
 * is the same when putting its value into `last` parses to what `last` parses to ("5000"
 * and "5000.00" are one amount, and are not written back).
 */
function differing(collection: Collection, fields: EntityFields, last: Record<string, unknown>): string[] {
  const schema = RECORD_SCHEMAS[collection];
  const base = schema.safeParse(last);
  const normal = (base.data ?? {}) as Record<string, unknown>;
  return Object.keys(last).filter((field) => {
    if (field === 'id') return false;
    if (!base.success) return true;
    const parsed = schema.safeParse({ ...last, [field]: fields[field] });
    return !parsed.success || JSON.stringify((parsed.data as Record<string, unknown>)[field]) !== JSON.stringify(normal[field]);
  });
}

export function applyCompensations(doc: Y.Doc, plans: Compensation[]): void {
  for (const plan of plans) {
    if (plan.kind === 'clear') clearRoot(doc, plan.root, plan.listOnly);
    else if (plan.kind === 'remove') collectionMap(doc, plan.collection).delete(plan.id);
    else {
      writeEntity(doc, plan.collection, plan.id, plan.fields);
      const entity = collectionMap(doc, plan.collection).get(plan.id) as Y.Map<unknown>;
      for (const field of plan.drop) entity.delete(field);
    }
  }
}

/**
 * What the person whose change was compensated is told (MESSAGE_COMPENSATED): what the plan
 * did to the entities their change touched. A record brought back because their change names
 * it is not news to them (their change stands).
 */
export function noticesOf(plans: Compensation[], changed: EntityChanges): CompensationNotice[] {
  return plans.flatMap((plan): CompensationNotice[] => {
    if (plan.kind === 'clear' || !isEntityId(plan.id) || !changed.get(plan.collection)?.has(plan.id)) return [];
    if (plan.kind === 'remove') return [{ collection: plan.collection, id: plan.id, action: 'removed', fields: {}, reason: plan.reason }];
    return [
      {
        collection: plan.collection,
        id: plan.id,
        action: plan.restored ? 'restored' : 'reverted',
        fields: plan.fields,
        dropped: plan.drop,
        reason: plan.reason,
      },
    ];
  });
}

/**
 * What the plans cost the person whose change they answer, in records put back
 * (RANCH_SYNC_INVALID_PER_MINUTE): one for each notice they are sent, and one for each plan no
 * notice names (a top-level type or list content cleared, a key that is not a record id removed).
 */
export function costOf(plans: Compensation[], changed: EntityChanges): number {
  let cost = 0;
  for (const plan of plans) {
    if (plan.kind === 'clear' || !isEntityId(plan.id) || changed.get(plan.collection)?.has(plan.id)) cost++;
  }
  return cost;
}

/** Deletes what lies under a top-level type: its map entries too unless `listOnly` (a collection keeps its entities). */
function clearRoot(doc: Y.Doc, root: string, listOnly: boolean): void {
  const type = doc.share.get(root);
  const transaction = doc._transaction;
  if (!type || !transaction) return;
  if (!listOnly) for (const item of type._map.values()) if (!item.deleted) item.delete(transaction);
  for (let item = type._start; item; item = item.right) if (!item.deleted) item.delete(transaction);
}
