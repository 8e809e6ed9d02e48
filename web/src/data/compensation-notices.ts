import type { CompensationNotice } from '../../../shared/index.ts';
import { createStore, type Store } from './store.ts';

/**
 * A notice under the bell: what the server put back of a change of ours (MESSAGE_COMPENSATED),
 * or what it said of a ledger entry this device recorded (ledger/push.ts): `flagged`, kept
 * with the rules it broke in `reason` ([P13]); `refused`, not kept ([S19]), and `intent` the
 * outbox row that keeps it until the person dismisses it.
 */
export type RanchNotice = Omit<CompensationNotice, 'action'> & {
  action: CompensationNotice['action'] | 'flagged' | 'refused';
  intent?: number;
};

/** One MESSAGE_COMPENSATED frame, or one push's answer: what the server put back or said of our changes. */
export type NoticeBatch = { id: number; receivedAt: number; notices: RanchNotice[] };
export type CompensationNotices = { batches: NoticeBatch[] };
export type NoticeStore = Store<CompensationNotices>;

/** The list under the bell keeps the newest notices only; they live until the page reloads. */
export const MAX_KEPT_NOTICES = 50;

export function createNoticeStore(): NoticeStore {
  return createStore<CompensationNotices>({ batches: [] });
}

let nextBatchId = 0;

/** Adds one frame's notices as a batch, dropping the oldest batches past MAX_KEPT_NOTICES. */
export function addNoticeBatch(store: NoticeStore, notices: RanchNotice[], receivedAt: number = Date.now()): void {
  nextBatchId += 1;
  const batches = [...store.get().batches, { id: nextBatchId, receivedAt, notices }];
  let kept = batches.reduce((sum, batch) => sum + batch.notices.length, 0);
  while (kept > MAX_KEPT_NOTICES && batches.length > 1) kept -= batches.shift()!.notices.length;
  store.set({ batches });
}
