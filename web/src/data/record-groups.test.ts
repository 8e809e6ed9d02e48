import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { collectionMap, deleteEntity, readRecord, writeEntity } from '../../../shared/index.ts';
import { openRanchDb, type RanchDb } from './db.ts';
import { startProjection } from './projection.ts';
import { applyFromOtherDevice } from '../../test/ranch-data.ts';

const GROUPS = ['0190a000-0000-7000-8000-0000000000c1', '0190a000-0000-7000-8000-0000000000c2', '0190a000-0000-7000-8000-0000000000c3'];
const recordId = (n: number) => `0190a000-0000-7000-8000-0000000002${String(n).padStart(2, '0')}`;

type Step =
  | { op: 'write'; record: number; group: number | null; n: number; remote: boolean }
  | { op: 'delete'; record: number; remote: boolean }
  | { op: 'settle' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('write' as const),
      record: fc.nat(11),
      group: fc.option(fc.nat(2), { freq: 8 }),
      n: fc.nat(999),
      remote: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), record: fc.nat(11), remote: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ op: 'settle' as const }) },
);

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The grouped collections: each record's fields for a group (null: none, not valid) and a
 * number (0 makes a payment's amount invalid; a care entry's kind comes from it, and 0 is
 * not a kind), and where the rows are.
 */
const CASES = [
  {
    collection: 'payments',
    table: 'salePayments',
    groupField: 'saleId',
    list: 'payments',
    fields: (group: string | null, n: number) => ({
      saleId: group,
      amount: `${n}.00`,
      date: '2024-03-01',
      method: 'Cash',
      createdAt: '2024-03-01T10:00:00.000Z',
    }),
  },
  {
    collection: 'careEntries',
    table: 'horseCare',
    groupField: 'horseId',
    list: 'entries',
    fields: (group: string | null, n: number) => ({
      horseId: group,
      kind: n === 0 ? 'haircut' : ['farrier', 'dental', 'vet'][n % 3]!,
      doneOn: '2024-03-01',
      nextDueOn: null,
      notes: `Visit ${n}`,
      recordedBy: '0190a000-0000-7000-8000-0000000003ff',
      recordedByName: 'Ann',
      createdAt: '2024-03-01T10:00:00.000Z',
    }),
  },
] as const;

type Case = (typeof CASES)[number];

/** What the table must hold: the document's valid records grouped by their group field, in id order. */
function expectedRows(doc: Y.Doc, c: Case): Record<string, unknown>[] {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const [key, entity] of collectionMap(doc, c.collection).entries()) {
    const reading = readRecord(c.collection, key, entity);
    if (!reading.valid) continue;
    const group = reading.record[c.groupField] as string;
    groups.set(group, [...(groups.get(group) ?? []), reading.record]);
  }
  return [...groups]
    .map(([group, records]) => ({ [c.groupField]: group, [c.list]: records.sort((a, b) => byCodeUnits(String(a.id), String(b.id))) }))
    .sort((a, b) => byCodeUnits(a[c.groupField] as string, b[c.groupField] as string));
}

const opened: RanchDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

describe.each(CASES)('$collection by $groupField in the read model', (c) => {
  it('after any mix of local and remote writes, moves and deletes, the rows are the valid records of the document grouped', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const doc = new Y.Doc();
        const db = openRanchDb(`record-groups-${c.collection}-${++run}`);
        opened.push(db);
        const projection = startProjection(doc, db, Promise.resolve());
        try {
          await projection.ready;
          for (const s of steps) {
            if (s.op === 'settle') {
              await projection.idle();
              continue;
            }
            const change = (target: Y.Doc) =>
              target.transact(() => {
                if (s.op === 'delete') deleteEntity(target, c.collection, recordId(s.record));
                else writeEntity(target, c.collection, recordId(s.record), c.fields(s.group === null ? null : GROUPS[s.group]!, s.n));
              });
            if (s.remote) applyFromOtherDevice(doc, change);
            else change(doc);
          }
          await projection.idle();
          expect(await db.table(c.table).orderBy(':id').toArray()).toEqual(expectedRows(doc, c));
        } finally {
          projection.stop();
          doc.destroy();
        }
      }),
      { numRuns: 40 },
    );
  });
});
