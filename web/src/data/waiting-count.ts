import type * as Y from 'yjs';
import type { SaveTracker } from './save-tracker.ts';
import { createStore, type Store } from './store.ts';
import { countUnsavedRecords } from './unsaved-changes.ts';

/** How long edits settle before the waiting records are counted again (the count encodes a diff). */
const COUNT_DELAY_MS = 400;

/**
 * Records with changes the server has not acknowledged, for the header ('N changes
 * waiting'); 0 when all is saved. Counted where the document is (the data worker, or this
 * thread), at once when changes start waiting and then at most every COUNT_DELAY_MS while typing.
 */
export function createWaitingCount(doc: Y.Doc, tracker: SaveTracker): { count: Store<{ records: number }>; destroy(): void } {
  const count = createStore({ records: 0 });
  let timer: ReturnType<typeof setTimeout> | null = null;
  const recount = () => count.set({ records: tracker.isSaved() ? 0 : countUnsavedRecords(doc, tracker) });
  const onChange = () => {
    if (tracker.isSaved()) {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      count.set({ records: 0 });
      return;
    }
    if (timer !== null) return;
    if (count.get().records === 0) recount();
    timer = setTimeout(() => {
      timer = null;
      recount();
    }, COUNT_DELAY_MS);
  };
  doc.on('update', onChange);
  const stop = tracker.onChange(onChange);
  void tracker.loaded.then(onChange);
  return {
    count,
    destroy() {
      doc.off('update', onChange);
      stop();
      if (timer !== null) clearTimeout(timer);
    },
  };
}
