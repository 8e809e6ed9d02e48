import type * as Y from 'yjs';
import type { Sql, Tx } from '../db/client.ts';
import {
  collectionMap,
  getEntity,
  RECORD_SCHEMAS,
  REFERENCES,
  writeEntity,
  type Collection,
  type EntityChanges,
  type EntityFields,
} from '../../../shared/index.ts';
import { projectedEntity } from './projection.ts';
import { entityKey, type ReferenceIndex } from './references.ts';
import { checkEntity, checkFields } from './validation.ts';

/** A write that undoes an invalid change: the entity's fields as they last were valid. */
export type Compensation = { collection: Collection; id: string; fields: EntityFields };

/**
 * Last valid fields of entities, by `collection/id`, not yet in the projection (changed
 * earlier in the same batch). A deletion does not erase an entry: an entity deleted and
 * written again in one batch (raw devices can reuse an id) is compared with it, as it would
 * be with its projection row had the deletion been in the same update.
 */
export type LastValid = Map<string, Record<string, unknown>>;

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
 * Decides how the server answers changes that would leave the ranch invalid
 * (docs/architecture.md "Validation of synced data"). Everything is judged against the
 * document (the merged truth at this moment) with the planned writes laid over it, never
 * against the projection, which lags the changes of the batch:
 * 1. a changed entity that is gone while an entity of the document still refers to it is
 *    restored whole, from its last valid state;
 * 2. a changed entity that is invalid and was valid before gets the fields the check blames
 *    written back to their last valid values, and is checked again (one fault can hide
 *    another), until it is valid; if that does not make it valid (the blamed field is as it
 *    was, such as an unchanged down payment above a lowered price), every field whose value
 *    means something else than in its last valid state is written back;
 * 3. whatever a restored entity or field refers to that is gone is restored too.
 * An entity that was never valid has no last valid state: nothing is written for it.
 * The result is written in one compensating update.
 */
export async function planCompensations(
  sql: Sql | Tx,
  doc: Y.Doc,
  changes: EntityChanges,
  references: ReferenceIndex,
  lastValid: LastValid = new Map(),
): Promise<Compensation[]> {
  const planner = new Planner(sql, doc, lastValid);
  for (const [collection, ids] of changes) {
    for (const id of ids) {
      if (!collectionMap(doc, collection).has(id) && references.isReferenced(collection, id)) await planner.restoreWhole(collection, id);
    }
  }
  for (const [collection, ids] of changes) {
    for (const id of ids) if (collectionMap(doc, collection).has(id)) await planner.repair(collection, id);
  }
  return planner.plans();
}

/** The planned writes, and the document as it will be once they are made. */
class Planner {
  /** `collection/id` → the entity's fields once the planned writes are made. */
  private readonly planned = new Map<string, { collection: Collection; id: string; fields: EntityFields; written: Set<string> }>();

  constructor(
    private readonly sql: Sql | Tx,
    private readonly doc: Y.Doc,
    private readonly lastValid: LastValid,
  ) {}

  private readonly exists = (collection: Collection, id: string): boolean =>
    this.planned.has(entityKey(collection, id)) || collectionMap(this.doc, collection).has(id);

  private current(collection: Collection, id: string): EntityFields | undefined {
    return this.planned.get(entityKey(collection, id))?.fields ?? getEntity(this.doc, collection, id);
  }

  private async last(collection: Collection, id: string): Promise<Record<string, unknown> | undefined> {
    return this.lastValid.get(entityKey(collection, id)) ?? (await projectedEntity(this.sql, collection, id));
  }

  private write(collection: Collection, id: string, fields: Record<string, unknown>): void {
    const key = entityKey(collection, id);
    let entry = this.planned.get(key);
    if (!entry) this.planned.set(key, (entry = { collection, id, fields: { ...(getEntity(this.doc, collection, id) ?? {}) }, written: new Set() }));
    for (const [field, value] of Object.entries(fields)) {
      if (field === 'id' || value === undefined) continue;
      entry.fields[field] = value as EntityFields[string];
      entry.written.add(field);
    }
  }

  /** Brings a gone entity back as it last was valid, with whatever that state refers to. */
  async restoreWhole(collection: Collection, id: string): Promise<void> {
    if (this.exists(collection, id)) return;
    const last = await this.last(collection, id);
    if (!last) return; // never valid: nothing to bring back
    this.write(collection, id, last);
    await this.restoreTargets(collection, last);
  }

  private async restoreTargets(collection: Collection, fields: Record<string, unknown>): Promise<void> {
    for (const [field, target] of Object.entries(REFERENCES[collection] ?? {})) {
      const value = fields[field];
      if (typeof value === 'string' && value !== '') await this.restoreWhole(target, value);
    }
  }

  /** Writes back what keeps an entity that was valid before from being valid now. */
  async repair(collection: Collection, id: string): Promise<void> {
    const check = () => checkFields(collection, id, this.current(collection, id)!, this.exists);
    let verdict = check();
    if (verdict.state !== 'invalid') return;
    const last = await this.last(collection, id);
    if (!last) return; // never valid: it stays as written, listed in entity_problems
    const restored = new Set<string>();
    while (verdict.state === 'invalid') {
      const changed = differing(collection, this.current(collection, id)!, last);
      let fields = verdict.fields.filter((field) => field in last && !restored.has(field));
      // The blamed fields are as they last were valid: the fault is in another field.
      if (fields.length === 0) fields = changed.filter((field) => !restored.has(field));
      if (fields.length === 0) return; // all of it is as it was valid: what it refers to is gone for good
      fields.forEach((field) => restored.add(field));
      // A blamed field that already means what it meant when valid is left as it is.
      const values = Object.fromEntries(fields.filter((field) => changed.includes(field)).map((field) => [field, last[field]]));
      this.write(collection, id, values);
      await this.restoreTargets(collection, values);
      verdict = check();
    }
  }

  /** The writes that change something, one per entity. */
  plans(): Compensation[] {
    const plans: Compensation[] = [];
    for (const { collection, id, fields, written } of this.planned.values()) {
      const stored = getEntity(this.doc, collection, id);
      const changed = [...written].filter((field) => !stored || stored[field] !== fields[field]);
      if (changed.length > 0) plans.push({ collection, id, fields: Object.fromEntries(changed.map((field) => [field, fields[field]!])) });
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
  for (const plan of plans) writeEntity(doc, plan.collection, plan.id, plan.fields);
}
