import type { CompensationNotice } from '../../../shared/index.ts';
import { createStore, type Store } from './store.ts';

/** One MESSAGE_COMPENSATED frame: what the server put back of one change of ours. */
export type NoticeBatch = { id: number; receivedAt: number; notices: CompensationNotice[] };
export type CompensationNotices = { batches: NoticeBatch[] };
export type NoticeStore = Store<CompensationNotices>;

/** The list under the bell keeps the newest notices only; they live until the page reloads. */
export const MAX_KEPT_NOTICES = 50;

export function createNoticeStore(): NoticeStore {
  return createStore<CompensationNotices>({ batches: [] });
}

let nextBatchId = 0;

/** Adds one frame's notices as a batch, dropping the oldest batches past MAX_KEPT_NOTICES. */
export function addNoticeBatch(store: NoticeStore, notices: CompensationNotice[], receivedAt: number = Date.now()): void {
  nextBatchId += 1;
  const batches = [...store.get().batches, { id: nextBatchId, receivedAt, notices }];
  let kept = batches.reduce((sum, batch) => sum + batch.notices.length, 0);
  while (kept > MAX_KEPT_NOTICES && batches.length > 1) kept -= batches.shift()!.notices.length;
  store.set({ batches });
}
