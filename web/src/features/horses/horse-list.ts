import Dexie, { type IntervalTree, type ObservabilitySet } from 'dexie';
import type { Horse } from '../../../../shared/index.ts';
import type { RanchDb } from '../../data/db.ts';
import { byNameThenId, mergeByName, type OnPage, readByNameInPages } from './read-in-pages.ts';

/**
 * More horses changed at once than this are read again with the whole list: one request per
 * horse changed would cost more than the pages.
 */
const MOST_PATCHED = 200;

/**
 * Every horse in name order (ties by id), kept up to date: read whole once (read-in-pages.ts,
 * `beginRead` says where each page goes), then each change that names the horses it touched
 * (Dexie's `storagemutated`, from this page or, over its BroadcastChannel, from the data
 * worker) reads only those horses and puts them in their places. A live query would read
 * every horse again for every change, here or from another device: the whole list's
 * requests and objects on the page's main thread for one horse saved. A change Dexie cannot name by key (a clear, a range, 50 rows or
 * more in one write, a page shown again from the back/forward cache) reads the whole list
 * again. Changes that arrive while a read is under way are applied after it, in order.
 *
 * `onList` hears each new list (a new array each time). Returns the stop.
 */
export function watchHorseList(db: RanchDb, beginRead: () => OnPage, onList: (horses: Horse[]) => void): () => void {
  const part = `idb://${db.name}/horses/`;
  let list: Horse[] | undefined;
  let stopped = false;
  let busy = false;
  let readWhole = true;
  const changed = new Set<string>();

  const next = async (): Promise<void> => {
    if (stopped || busy || (!readWhole && changed.size === 0)) return;
    busy = true;
    let failed = false;
    try {
      if (readWhole || !list || changed.size > MOST_PATCHED) {
        readWhole = false;
        changed.clear();
        list = await readByNameInPages(db, undefined, beginRead());
      } else {
        const ids = [...changed];
        changed.clear();
        list = patchByName(list, ids, await db.horses.bulkGet(ids));
      }
      if (!stopped) onList(list);
    } catch (error) {
      // The list stays as it was, and the next change reads it whole again (not at once: a
      // database that cannot be read now would be asked again and again).
      console.error('The horse list could not be read', error);
      failed = true;
      readWhole = true;
    } finally {
      busy = false;
    }
    if (!failed) await next();
  };

  const onMutated = (parts: ObservabilitySet) => {
    const tree = parts[part];
    if (!tree && !('all' in parts)) return;
    const keys = tree && keysOf(tree);
    if (!keys) readWhole = true;
    else for (const key of keys) changed.add(key);
    void next();
  };
  Dexie.on('storagemutated', onMutated);
  void next();
  return () => {
    stopped = true;
    Dexie.on.storagemutated.unsubscribe(onMutated);
  };
}

/**
 * The string keys a change names (Dexie's interval tree of the primary keys it touched), or
 * null when it names a range instead. The tree may come over a BroadcastChannel, as plain
 * objects, so it is walked here rather than through RangeSet's iterator.
 */
export function keysOf(tree: IntervalTree): string[] | null {
  const keys: string[] = [];
  const walk = (node: IntervalTree | null | undefined): boolean => {
    if (!node || !('from' in node)) return true;
    if (typeof node.from !== 'string' || node.from !== node.to) return false;
    keys.push(node.from);
    return walk(node.l) && walk(node.r);
  };
  return walk(tree) ? keys : null;
}

/** `list` (in name order) with the horses `ids` name replaced by what was read of them (`read[i]` for `ids[i]`; undefined: deleted). */
export function patchByName(list: readonly Horse[], ids: readonly string[], read: readonly (Horse | undefined)[]): Horse[] {
  const touched = new Set(ids);
  const kept = list.filter((horse) => !touched.has(horse.id));
  const now = read.filter((horse): horse is Horse => horse !== undefined).sort(byNameThenId);
  return mergeByName(kept, now);
}
