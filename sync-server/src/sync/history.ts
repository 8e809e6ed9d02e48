import type * as Y from 'yjs';
import { collectionMap, DEVICE_TIME_FIELD, isDeviceTime, isEntityId, type Collection, type EntityChanges } from '../../../shared/index.ts';
import { WHOLE, type Edits } from './edits.ts';
import { entityKey } from './references.ts';
import { selectList, TABLES } from './tables.ts';
import { checkEntity } from './validation.ts';

/**
 * [T1] One change's effect on one entity, as the commit that makes it durable sees it: the
 * entity's valid state once the change (and its compensation) was applied, or null when it
 * was removed. The commit compares it with the state before — the previous step of the same
 * entity in the batch, else the projection row — and writes one change_history row per
 * field that differs (historyStatements).
 */
export type HistoryStep = {
  collection: Collection;
  id: string;
  userId: string | null;
  /** The entity's valid fields after the change; null: removed. */
  after: Record<string, unknown> | null;
  /** [T5] The device's claim of when it made the change, when the change stamped one. */
  deviceTime: string | null;
};

/**
 * [T5] The time the change stamped on the entity (DEVICE_TIME_FIELD), if it did: a new
 * entity's, or one the change wrote. A stamp left by an earlier change (a REST edit writes
 * none) is not this change's time.
 */
function deviceTime(doc: Y.Doc, collection: Collection, id: string, edits: Edits): string | null {
  const edited = edits.get(entityKey(collection, id));
  if (edited && !edited.has(WHOLE) && !edited.has(DEVICE_TIME_FIELD)) return null;
  const entity = collectionMap(doc, collection).get(id) as { get?: (field: string) => unknown } | undefined;
  const value = typeof entity?.get === 'function' ? entity.get(DEVICE_TIME_FIELD) : undefined;
  return isDeviceTime(value) ? value : null;
}

/**
 * The history steps of one change (docs/architecture.md "History"): every entity it touched
 * that is valid or removed now; an entity left invalid keeps its last valid row, so it has
 * no step (its projection row did not change either).
 */
export function historySteps(
  doc: Y.Doc,
  { changes, edits }: { changes: EntityChanges; edits: Edits },
  userId: string | null,
): HistoryStep[] {
  const steps: HistoryStep[] = [];
  for (const [collection, ids] of changes) {
    for (const id of ids) {
      if (!isEntityId(id)) continue;
      const verdict = checkEntity(doc, collection, id);
      if (verdict.state === 'invalid') continue;
      const after = verdict.state === 'valid' ? verdict.record : null;
      steps.push({ collection, id, userId, after, deviceTime: after ? deviceTime(doc, collection, id, edits) : null });
    }
  }
  return steps;
}

/**
 * The history writes of a commit, as parts of the caller's `with` statement (they read the
 * `claimed` row, so nothing is written unless the commit claimed its log position). Each
 * step's state goes through its table's row type and is read back as the projection reads
 * it, so before and after compare alike; the state before the first step of an entity is
 * its projection row as it was before this statement (a `with` statement's parts all see
 * the tables as they were when it began). One insert for the whole commit.
 */
export function historyStatements(steps: HistoryStep[], parameter: (value: unknown) => string): string[] {
  if (steps.length === 0) return [];
  const byCollection = new Map<Collection, object[]>();
  steps.forEach((step, index) => {
    const { columns } = TABLES[step.collection];
    const row = step.after && Object.fromEntries(columns.map(({ field, column }) => [column, step.after?.[field] ?? null]));
    const list = byCollection.get(step.collection) ?? [];
    list.push({ step: index + 1, entity_id: step.id, user_id: step.userId, device_time: step.deviceTime, row });
    byCollection.set(step.collection, list);
  });
  const parts: string[] = [];
  const names: string[] = [];
  for (const [collection, rows] of byCollection) {
    const { table } = TABLES[collection];
    const name = `history_${table}`;
    names.push(name);
    parts.push(`${name} as (
      select '${collection}'::text as collection, s.step, s.entity_id, s.user_id, s.device_time, a.fields as after,
        case when row_number() over w = 1 then o.fields else lag(a.fields) over w end as before
      from claimed
      cross join jsonb_to_recordset(${parameter(rows)}::jsonb) as s (step int, entity_id uuid, user_id uuid, device_time text, row jsonb)
      left join lateral (select to_jsonb(p) as fields from (select ${selectList(collection, 'r')}
        from jsonb_populate_record(null::${table}, s.row) r where s.row is not null) p) a on true
      left join lateral (select to_jsonb(p) as fields from (select ${selectList(collection, 't')}
        from ${table} t where t.id = s.entity_id) p) o on true
      window w as (partition by s.entity_id order by s.step))`);
  }
  parts.push(`history as (insert into change_history (seq, step, collection, entity_id, kind, field, before, after, user_id, device_time)
    select claimed.last_seq, h.step, h.collection, h.entity_id,
      case when h.before is null then 'create' when h.after is null then 'delete' else 'update' end,
      f.field, h.before -> f.field, h.after -> f.field, h.user_id, h.device_time
    from claimed, (${names.map((name) => `select * from ${name}`).join(' union all ')}) h,
      lateral jsonb_object_keys(coalesce(h.before, '{}') || coalesce(h.after, '{}')) as f (field)
    where f.field <> 'id' and coalesce(h.before -> f.field, 'null') is distinct from coalesce(h.after -> f.field, 'null')
    order by h.step, f.field)`);
  return parts;
}
