import type { Horse } from '../../../../shared/index.ts';
import type { OnPage, RowsSoFar } from './read-in-pages.ts';

/**
 * The horses the whole-list read has handed over so far (read-in-pages.ts `onPage`), for a
 * search typed before the list is complete. A small store rather than a live query per
 * page: the whole list stays one live query (one result, one re-run on a change, Export's
 * `complete` as before), and only a screen that is searching re-renders as pages arrive
 * (useHorseRows subscribes with useSyncExternalStore).
 */
export type ArrivedRows = {
  /** A new read of the whole list (the live query ran again): its pages count from now, an earlier read's no more. */
  begin(): OnPage;
  /** Every row read so far in name order; undefined until a read hands over its first page. */
  rows(): Horse[] | undefined;
  subscribe(listener: () => void): () => void;
};

export function createArrivedRows(): ArrivedRows {
  let soFar: RowsSoFar | undefined;
  let adopted = 0;
  // Put in name order when first asked after a page, then the same array until the next.
  let rows: Horse[] | undefined;
  let reads = 0;
  const listeners = new Set<() => void>();
  return {
    begin() {
      const read = ++reads;
      return (next) => {
        // A change in the middle of the read starts it again: the earlier read's rows stay
        // until the new one has read as many, so a search's partial result never shrinks.
        if (read !== reads || next.count < adopted) return;
        soFar = next;
        adopted = next.count;
        rows = undefined;
        for (const listener of listeners) listener();
      };
    },
    rows: () => (rows ??= soFar?.inNameOrder()),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
