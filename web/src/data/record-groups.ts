import type * as Y from 'yjs';
import { collectionMap, readRecord } from '../../../shared/index.ts';
import { InvalidEntities } from './invalid-entities.ts';

/**
 * The collections the read model keeps as one row per group rather than one per record:
 * payments by sale (`salePayments`), care entries by horse (`horseCare`). Both are read
 * only by their group or all at once, and a ranch has several of each per sale or horse: a
 * first sync writes a row per group instead of one per record, and IndexedDB's per-row cost
 * is what a first sync spends its time on (docs/web.md, Data).
 */
export type GroupedCollection = 'payments' | 'careEntries';

/** The field each grouped collection is grouped by: the key of its rows. */
export const GROUP_FIELD = { payments: 'saleId', careEntries: 'horseId' } as const satisfies Record<GroupedCollection, string>;

export const isGrouped = (collection: string): collection is GroupedCollection => Object.hasOwn(GROUP_FIELD, collection);

type Grouped = { id: string } & Record<string, unknown>;

const byId = (a: Grouped, b: Grouped) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Which records of a grouped collection belong to which group (their GROUP_FIELD),
 * as the projection last read them, so a change to a few records rewrites only their
 * groups' rows (both groups when a record moved from one to another, or was removed). Only
 * valid records (shared readRecord) are kept, grouped by their validated field; an invalid
 * one is left out of every row and noted in `invalid`. Each record is parsed once, when it
 * changes, and kept as read.
 */
export class RecordGroups<Row> {
  private readonly records = new Map<string, Grouped>();
  private readonly byGroup = new Map<string, Set<string>>();

  private readonly groupField: string;

  constructor(
    readonly collection: GroupedCollection,
    /** The row of a group from its records, in id order. */
    private readonly rowOf: (groupKey: string, records: Grouped[]) => Row,
    private readonly invalid: InvalidEntities = new InvalidEntities(),
  ) {
    this.groupField = GROUP_FIELD[collection];
  }

  /** Takes in the current state of `ids`; returns the keys of the groups whose rows changed. */
  touch(doc: Y.Doc, ids: Iterable<string>): Set<string> {
    const map = collectionMap(doc, this.collection);
    const touched = new Set<string>();
    for (const id of ids) {
      const before = this.records.get(id);
      const after = this.read(id, map.get(id));
      if (before) {
        const group = before[this.groupField] as string;
        touched.add(group);
        this.leave(id, group);
      }
      if (after) {
        touched.add(after[this.groupField] as string);
        this.join(after);
      }
    }
    return touched;
  }

  /** Every record id in the index. */
  ids(): IterableIterator<string> {
    return this.records.keys();
  }

  /** Every group key that has records. */
  keys(): IterableIterator<string> {
    return this.byGroup.keys();
  }

  /** The row of `groupKey` as its records were last touched; null when it has no valid records. */
  row(groupKey: string): Row | null {
    const ids = this.byGroup.get(groupKey);
    if (!ids || ids.size === 0) return null;
    const records: Grouped[] = [];
    for (const id of ids) records.push(this.records.get(id)!);
    return this.rowOf(groupKey, records.sort(byId));
  }

  private read(id: string, value: unknown): Grouped | undefined {
    if (value === undefined) {
      this.invalid.note(this.collection, id, null);
      return undefined;
    }
    const reading = readRecord(this.collection, id, value);
    this.invalid.note(this.collection, id, reading.valid ? null : reading.problem);
    return reading.valid ? (reading.record as Grouped) : undefined;
  }

  private join(record: Grouped): void {
    this.records.set(record.id, record);
    const group = record[this.groupField] as string;
    let ids = this.byGroup.get(group);
    if (!ids) this.byGroup.set(group, (ids = new Set()));
    ids.add(record.id);
  }

  private leave(id: string, group: string): void {
    this.records.delete(id);
    const ids = this.byGroup.get(group);
    ids?.delete(id);
    if (ids?.size === 0) this.byGroup.delete(group);
  }
}
