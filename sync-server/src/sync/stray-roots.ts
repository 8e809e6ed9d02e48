import type * as Y from 'yjs';
import { DOC_COLLECTIONS, MOVED_TO_LEDGER } from '../../../shared/index.ts';

/** The document's collections, and the old layout's whose records move to the ledger (ledger/old-layout.ts). */
const KNOWN: ReadonlySet<string> = new Set([...DOC_COLLECTIONS, ...MOVED_TO_LEDGER]);

/** Whether a chain of items holds anything not deleted. */
function liveItems(first: Y.Item | null): boolean {
  for (let item = first; item; item = item.right) if (!item.deleted) return true;
  return false;
}

/**
 * Content the document layout has no place for (docs/sync-rules.md): top-level types other
 * than the collections, and list content under a collection's map (a client that took
 * `horses` for a Y.Array). Anyone can write it; nothing reads it; the server deletes it so it
 * is not kept and sent to every device. Cheap when there is none: one look per top-level type.
 */
export function strayContent(doc: Y.Doc): { kind: 'clear'; root: string; listOnly: boolean }[] {
  const found: { kind: 'clear'; root: string; listOnly: boolean }[] = [];
  for (const [root, type] of doc.share) {
    const known = KNOWN.has(root);
    const live = liveItems(type._start) || (!known && [...type._map.values()].some((item) => !item.deleted));
    if (live) found.push({ kind: 'clear', root, listOnly: known });
  }
  return found;
}
