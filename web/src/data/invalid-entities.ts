import type { Collection } from '../../../shared/index.ts';
import type { ReadTable } from './db.ts';
import { createStore, type Store } from './store.ts';

/** An entity in the document the projection leaves out of the tables (or a row IndexedDB refused), and why. */
export type InvalidEntity = { collection: Collection | ReadTable; key: string; problem: string };

/**
 * The entities of the document that are not valid records (any Yjs client can write the
 * public layout) or that IndexedDB refused, as of the projection's last read of each. The
 * count is a store so Settings can say how many records could not be shown.
 */
export class InvalidEntities {
  private readonly byKey = new Map<string, InvalidEntity>();
  /** Rows IndexedDB refused, until the next full reconcile writes them or refuses them again. */
  private refusedRows: InvalidEntity[] = [];
  private added = 0;
  readonly count: Store<{ invalid: number }> = createStore({ invalid: 0 });

  /** Records that `key` is invalid (or no longer is, with `problem` null). */
  note(collection: Collection, key: string, problem: string | null): void {
    // A valid entity with nothing noted (nearly every one of a first sync's 71,000) costs
    // no key string: building one each was a tenth of the projection's reading here.
    if (problem === null && this.byKey.size === 0) return;
    const id = `${collection}\u0000${key}`;
    if (problem === null) {
      this.byKey.delete(id);
      return;
    }
    if (!this.byKey.has(id)) this.added++;
    this.byKey.set(id, { collection, key, problem });
  }

  /** Forgets every entity of `collection` not in `keys` (a full reconcile read them all). */
  retain(collection: Collection, keys: ReadonlySet<string>): void {
    for (const [id, entity] of this.byKey) {
      if (entity.collection === collection && !keys.has(entity.key)) this.byKey.delete(id);
    }
  }

  refused(table: ReadTable, key: string, problem: string): void {
    this.refusedRows.push({ collection: table, key, problem });
    this.added++;
  }

  clearRefused(): void {
    this.refusedRows = [];
  }

  list(): InvalidEntity[] {
    return [...this.byKey.values(), ...this.refusedRows];
  }

  /** Ends a batch: publishes the count and warns once when the batch found new invalid entities. */
  publish(): void {
    if (this.added > 0) {
      const all = this.byKey.size + this.refusedRows.length;
      console.warn(
        `Projection: ${this.added} records are not valid or could not be stored, so they are not shown (${all} in all)`,
        this.list().slice(0, 5),
      );
      this.added = 0;
    }
    this.count.set({ invalid: this.byKey.size + this.refusedRows.length });
  }
}
