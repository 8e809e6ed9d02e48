import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { deleteEntity, newId, writeEntity, type EntityChanges } from '../../shared/index.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { historySteps, type HistoryStep } from '../src/sync/history.ts';
import { appendStatement, appendUpdates } from '../src/sync/persistence.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.ts';

/**
 * A commit's statement (persistence.ts appendStatement) reaches the rows of the entities it
 * changed by key: Postgres's plan for one edit on a large table scans none of the tables
 * that grow with the ranch, so a commit's work follows the change, not the document.
 */
const ROWS = 3000;
/** Tables that grow with the ranch and its years of edits. */
const GROWING = ['breeds', 'change_history', 'entity_tombstones', 'conflicts'];

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

function scansOf(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(scansOf)];
}

describe.each(databaseKinds())('the commit statement on a large ranch (%s)', (kind) => {
  let test: TestDatabase;
  let db: Database;
  const name = `doc-${newId()}`;
  const doc = new Y.Doc();
  const ids = Array.from({ length: ROWS }, () => newId());
  let seq = 0n;

  /** One change to the document as the host commits it: its update, entities and history steps. */
  const changeOf = (edit: (doc: Y.Doc) => void, touched: string[]) => {
    const before = Y.encodeStateVector(doc);
    doc.transact(() => edit(doc));
    const changes: EntityChanges = new Map([['breeds', new Set(touched)]]);
    const update = Y.encodeStateAsUpdate(doc, before);
    return { update, changes, history: historySteps(doc, { changes, edits: new Map() }, null) };
  };

  /** The tables Postgres would scan whole to commit `change` (EXPLAIN: planned, nothing written). */
  const scannedBy = async ({ update, changes, history }: ReturnType<typeof changeOf>) => {
    const { text, parameters } = appendStatement(name, seq, [{ update, userId: null }], doc, changes, history);
    const [row] = await db.sql.unsafe<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`explain (format json) ${text}`, parameters as never[]);
    return scansOf(row!['QUERY PLAN'][0].Plan).filter((table) => GROWING.includes(table));
  };

  beforeAll(async () => {
    test = await createTestDatabase(kind);
    db = await openDatabase(test.options);
    await db.sql`insert into docs (name) values (${name})`;
    const seeded = changeOf((d) => ids.forEach((id, i) => writeEntity(d, 'breeds', id, { name: `Breed ${i}`, isActive: true })), ids);
    seq = (await appendUpdates(db.sql, name, seq, [{ update: seeded.update, userId: null }], doc, seeded.changes, seeded.history))!;
    // Years of removals and of conflicts, open and closed, on other entities.
    await db.sql`insert into entity_tombstones (collection, entity_id, fields)
      select 'breeds', gen_random_uuid(), '{}'::jsonb from generate_series(1, ${ROWS})`;
    await db.sql`insert into conflicts (collection, entity_id, field, seq, closed_seq)
      select 'breeds', gen_random_uuid(), 'name', 1, case when i % 2 = 0 then 2 end from generate_series(1, ${ROWS}) i`;
    for (const table of GROWING) await db.sql.unsafe(`analyze ${table}`);
  });
  afterAll(async () => {
    await db?.close();
    await test?.drop();
  });

  it('an edit of one entity, its history and the conflicts it closes scan no table whole', async () => {
    const edit = changeOf((d) => writeEntity(d, 'breeds', ids[7]!, { name: 'Renamed' }), [ids[7]!]);
    const steps: HistoryStep[] = edit.history.map((step) => ({ ...step, closes: ['name'] }));
    expect(steps).toHaveLength(1);
    expect(await scannedBy({ ...edit, history: steps })).toEqual([]);
  });

  it('an edit that met a concurrent write (a conflict found) scans no table whole', async () => {
    const edit = changeOf((d) => writeEntity(d, 'breeds', ids[8]!, { name: 'Theirs' }), [ids[8]!]);
    const steps: HistoryStep[] = edit.history.map((step) => ({
      ...step,
      conflicts: [{ field: 'name', won: true, money: false }],
    }));
    expect(await scannedBy({ ...edit, history: steps })).toEqual([]);
  });

  it('a removal, its tombstone and its history scan no table whole', async () => {
    const removal = changeOf((d) => deleteEntity(d, 'breeds', ids[9]!), [ids[9]!]);
    expect(removal.history).toEqual([expect.objectContaining({ id: ids[9], after: null })]);
    expect(await scannedBy(removal)).toEqual([]);
  });
});
