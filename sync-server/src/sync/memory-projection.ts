import { isEntityId, type Collection } from '../../../shared/index.ts';
import type { LastValidStates, Projection } from './document-store.ts';
import { entityKey } from './references.ts';
import { TABLES } from './tables.ts';
import { checkEntity } from './validation.ts';

type Row = Record<string, unknown>;

/** Records undo steps, so a transaction that throws leaves nothing behind. */
export class UndoLog {
  private readonly steps: (() => void)[] = [];

  set<K, V>(map: Map<K, V>, key: K, value: V): void {
    this.remember(map, key);
    map.set(key, value);
  }

  delete<K, V>(map: Map<K, V>, key: K): void {
    if (!map.has(key)) return;
    this.remember(map, key);
    map.delete(key);
  }

  assign<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): void {
    const old = target[key];
    this.steps.push(() => (target[key] = old));
    target[key] = value;
  }

  undo(): void {
    for (const step of this.steps.splice(0).reverse()) step();
  }

  private remember<K, V>(map: Map<K, V>, key: K): void {
    const had = map.has(key);
    const old = map.get(key);
    this.steps.push(() => (had ? map.set(key, old as V) : map.delete(key)));
  }
}

/** A row as Postgres reads it back (tables.ts selectExpression): every column, null when unset, timestamps in UTC with milliseconds. */
function toRow(collection: Collection, record: Row): Row {
  return Object.fromEntries(
    TABLES[collection].columns.map(({ field, kind }) => {
      const value = record[field] ?? null;
      return [field, kind === 'timestamp' && typeof value === 'string' ? new Date(value).toISOString() : value];
    }),
  );
}

/**
 * The projection in memory, with the rules of projection.ts: a valid entity's row is
 * written, a removed one's row goes and leaves a tombstone, an invalid one keeps its last
 * valid row and is listed as a problem until it is valid again.
 */
export class MemoryProjection {
  /** `collection/id` → row. */
  readonly rows = new Map<string, Row>();
  readonly tombstones = new Map<string, Row>();
  readonly problems = new Map<string, string>();

  write({ doc, changes }: Projection, undo: UndoLog): void {
    for (const [collection, ids] of changes) {
      for (const id of ids) {
        if (!isEntityId(id)) continue;
        const key = entityKey(collection, id);
        const verdict = checkEntity(doc, collection, id);
        if (verdict.state === 'invalid') {
          undo.set(this.problems, key, verdict.problem);
          continue;
        }
        undo.delete(this.problems, key);
        if (verdict.state === 'valid') {
          undo.set(this.rows, key, toRow(collection, verdict.record));
          continue;
        }
        const removed = this.rows.get(key);
        if (!removed) continue;
        undo.delete(this.rows, key);
        undo.set(this.tombstones, key, removed);
      }
    }
  }

  lastValid(collection: Collection, ids: string[]): LastValidStates {
    const found: LastValidStates = new Map();
    for (const id of ids) {
      if (!isEntityId(id)) continue;
      const key = entityKey(collection, id);
      const row = this.rows.get(key) ?? this.tombstones.get(key);
      if (row) found.set(id, { ...row });
    }
    return found;
  }
}
