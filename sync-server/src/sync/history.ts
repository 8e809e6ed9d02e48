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
  /** [T6] Fields this change wrote without having seen the server's value (conflicts.ts), and whether it won. */
  conflicts?: { field: string; won: boolean; money: boolean }[];
  /** [T6] Fields this change wrote having seen the server's value: their open conflicts close. */
  closes?: string[];
  /** [T6] `after` with the values the change lost with in place of the kept ones (valid fields). */
  lost?: Record<string, unknown> | null;
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
 * the tables as they were when it began). One insert for the whole commit; the conflicts
 * found (conflictStatements) mark their rows, and a write that lost gets a row of its own.
 */
export function historyStatements(steps: HistoryStep[], parameter: (value: unknown) => string): string[] {
  if (steps.length === 0) return [];
  const byCollection = new Map<Collection, object[]>();
  const asRow = (collection: Collection, fields: Record<string, unknown> | null | undefined) =>
    fields ? Object.fromEntries(TABLES[collection].columns.map(({ field, column }) => [column, fields[field] ?? null])) : null;
  steps.forEach((step, index) => {
    const list = byCollection.get(step.collection) ?? [];
    list.push({
      step: index + 1,
      entity_id: step.id,
      user_id: step.userId,
      device_time: step.deviceTime,
      row: asRow(step.collection, step.after),
      lost: asRow(step.collection, step.lost),
      conflicts: step.conflicts?.length ? step.conflicts : null,
      closes: step.closes?.length ? step.closes : null,
    });
    byCollection.set(step.collection, list);
  });
  const parts: string[] = [];
  const names: string[] = [];
  for (const [collection, rows] of byCollection) {
    const { table } = TABLES[collection];
    const name = `history_${table}`;
    names.push(name);
    const read = (
      alias: string,
      source: string,
    ) => `left join lateral (select to_jsonb(p) as fields from (select ${selectList(collection, alias)}
        from jsonb_populate_record(null::${table}, ${source}) ${alias} where ${source} is not null) p) ${alias}_read on true`;
    parts.push(`${name} as (
      select '${collection}'::text as collection, s.step, s.entity_id, s.user_id, s.device_time, a_read.fields as after,
        case when row_number() over w = 1 then o.fields else lag(a_read.fields) over w end as before,
        l_read.fields as lost, s.conflicts, s.closes
      from claimed
      cross join jsonb_to_recordset(${parameter(rows)}::jsonb)
        as s (step int, entity_id uuid, user_id uuid, device_time text, row jsonb, lost jsonb, conflicts jsonb, closes jsonb)
      ${read('a', 's.row')}
      ${read('l', 's.lost')}
      left join lateral (select to_jsonb(p) as fields from (select ${selectList(collection, 't')}
        from ${table} t where t.id = s.entity_id limit 1) p) o on true
      window w as (partition by s.entity_id order by s.step))`);
  }
  parts.push(`steps as (${names.map((name) => `select * from ${name}`).join(' union all ')})`);
  parts.push(
    ...conflictStatements(
      steps.some((step) => step.conflicts?.length),
      steps.some((step) => step.closes?.length || step.after === null),
    ),
  );
  parts.push(`history as (insert into change_history (seq, step, collection, entity_id, kind, field, before, after, user_id, device_time, conflict_id, lost)
    select claimed.last_seq, c.* from claimed, (
      select h.step, h.collection, h.entity_id,
        case when h.before is null then 'create' when h.after is null then 'delete' else 'update' end as kind,
        f.field, h.before -> f.field as before, h.after -> f.field as after, h.user_id, h.device_time, k.id as conflict_id, false as lost
      from steps h
      cross join lateral jsonb_object_keys(coalesce(h.before, '{}') || coalesce(h.after, '{}')) as f (field)
      left join found k on k.step = h.step and k.field = f.field and k.won
      where f.field <> 'id' and coalesce(h.before -> f.field, 'null') is distinct from coalesce(h.after -> f.field, 'null')
      union all
      select k.step, k.collection, k.entity_id, 'update', k.field, k.kept, k.other, k.user_id, k.device_time, k.id, true
      from found k where not k.won) c
    order by c.step, c.field, c.lost)`);
  return parts;
}

/**
 * [T6] The conflict writes of a commit (docs/architecture.md "Conflicts"), reading the
 * `steps` of historyStatements: `found`, each step's concurrent writes whose value differs
 * from the one they met, with who made that earlier value and when (an earlier step of this
 * commit, else the field's last kept history row); `opened`, their rows; `marked`, that
 * earlier write's history row (unless it met another already); `closed`, the open
 * conflicts of each field a step wrote having seen the kept value, and of each entity deleted.
 * Each part reaches its rows by key (a lateral or `= any(array(…))`), never by a join the
 * planner could answer by scanning change_history or conflicts whole.
 */
function conflictStatements(finding: boolean, closing: boolean): string[] {
  const other = `case when x.won then h.before -> x.field else h.lost -> x.field end`;
  // Left out when there is nothing to find or close: the planner's estimates for these parts
  // (a row count guessed per JSON array) are high enough to make Postgres JIT-compile the
  // statement, which took seconds.
  const nothingFound = `found as (select null::bigint as id, null::int as step, null::text as collection, null::uuid as entity_id,
    null::text as field, null::boolean as won, null::uuid as user_id, null::text as device_time, null::jsonb as kept,
    null::jsonb as other where false)`;
  const parts = [
    `found as (
      select nextval('conflicts_id_seq'::regclass) as id, h.step, h.collection, h.entity_id, x.field, x.won, x.money,
        h.user_id, h.device_time, h.after -> x.field as kept, ${other} as other, p.user_id as prev_user, p.at as prev_time, p.history_id as prev_history
      from steps h
      cross join lateral jsonb_to_recordset(h.conflicts) as x (field text, won boolean, money boolean)
      left join lateral (select w.user_id, w.at, w.history_id from (
          select 0 as o, e.step::bigint as n, e.user_id, now() as at, null::bigint as history_id from steps e
          where e.collection = h.collection and e.entity_id = h.entity_id and e.step < h.step
            and coalesce(e.before -> x.field, 'null') is distinct from coalesce(e.after -> x.field, 'null')
          union all
          select 1, ch.id, ch.user_id, ch.server_time, ch.id from change_history ch
          where ch.collection = h.collection and ch.entity_id = h.entity_id and ch.field = x.field and not ch.lost
        ) w order by w.o, w.n desc limit 1) p on true
      where h.after is not null and coalesce(h.after -> x.field, 'null') is distinct from coalesce(${other}, 'null'))`,
    `opened as (insert into conflicts (id, collection, entity_id, field, kept, other, kept_user, other_user, kept_time, other_time, money, seq)
      select k.id, k.collection, k.entity_id, k.field, k.kept, k.other,
        case when k.won then k.user_id else k.prev_user end, case when k.won then k.prev_user else k.user_id end,
        case when k.won then now() else k.prev_time end, case when k.won then k.prev_time else now() end,
        k.money, claimed.last_seq
      from claimed, found k)`,
    `marked as (update change_history ch set conflict_id = (select k.id from found k where k.prev_history = ch.id limit 1)
      where ch.id = any(array(select k.prev_history from found k where k.prev_history is not null)) and ch.conflict_id is null)`,
    `closed as (update conflicts c set closed_seq = claimed.last_seq, closed_by = h.user_id, closed_at = now(),
        closed_how = case when h.after is null then 'deleted'
          when coalesce(h.after -> c.field, 'null') = coalesce(c.other, 'null') then 'put back'
          when coalesce(h.after -> c.field, 'null') = coalesce(c.kept, 'null') then 'kept' else 'changed' end
      from claimed, steps h
      where c.id = any(array(select o.id from steps s cross join lateral (select id from conflicts
          where closed_seq is null and collection = s.collection and entity_id = s.entity_id offset 0) o))
        and c.closed_seq is null and c.collection = h.collection and c.entity_id = h.entity_id
        and (h.after is null or coalesce(h.closes, '[]') @> jsonb_build_array(c.field)))`,
  ];
  const [found = '', opened = '', marked = '', closed = ''] = parts;
  return [...(finding ? [found, opened, marked] : [nothingFound]), ...(closing ? [closed] : [])];
}
