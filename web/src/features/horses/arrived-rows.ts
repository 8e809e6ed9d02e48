import type { Horse } from '../../../../shared/index.ts';
import type { ReadPages } from './early-matches.ts';
import type { OnPage, RowsSoFar } from './read-in-pages.ts';

/**
 * The pages the whole-list read has handed over so far (read-in-pages.ts `onPage`), for a
 * search typed before the list is complete (early-matches.ts). A small store rather than a
 * result per page: the whole list stays one result (horse-list.ts; Export's `complete` as
 * before), and only a screen that is searching re-renders as pages arrive (useHorseRows
 * subscribes with useSyncExternalStore).
 */
export type ArrivedRows = {
  /** A new read of the whole list (horse-list.ts reads it whole again): its pages count from now, an earlier read's no more. */
  begin(): OnPage;
  /**
   * The pages of the read adopted so far; undefined until a read hands over its first page.
   * The same object while that read goes on (its `pages` grow), another once a newer read
   * is adopted.
   */
  read(): ReadPages | undefined;
  subscribe(listener: () => void): () => void;
};

export function createArrivedRows(): ArrivedRows {
  let adopted: (ReadPages & { pages: Horse[][]; count: number }) | undefined;
  let reads = 0;
  const listeners = new Set<() => void>();
  return {
    begin() {
      const read = ++reads;
      let rows: RowsSoFar | undefined;
      const mine = { pages: [] as Horse[][], count: 0, inNameOrder: () => rows?.inNameOrder() ?? [] };
      return (soFar, page) => {
        if (read !== reads) return;
        rows = soFar;
        mine.pages.push(page);
        mine.count = soFar.count;
        // A later whole read (horse-list.ts reads whole again for a change it cannot name):
        // the earlier read's rows stay until the new one has read as many, so a search's
        // partial result never shrinks.
        if (adopted && adopted !== mine && mine.count < adopted.count) return;
        adopted = mine;
        for (const listener of listeners) listener();
      };
    },
    read: () => adopted,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
