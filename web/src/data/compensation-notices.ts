import { z } from 'zod';
import * as decoding from 'lib0/decoding';
import { COLLECTIONS, type CompensationNotice } from '../../../shared/index.ts';
import { createStore, type Store } from './store.ts';

/** One MESSAGE_COMPENSATED frame: what the server put back of one change of ours. */
export type NoticeBatch = { id: number; receivedAt: number; notices: CompensationNotice[] };
export type CompensationNotices = { batches: NoticeBatch[] };
export type NoticeStore = Store<CompensationNotices>;

/** The list under the bell keeps the newest notices only; they live until the page reloads. */
export const MAX_KEPT_NOTICES = 50;
/** A frame is network input: bound what one may hold so a broken server cannot flood the page. */
const MAX_NOTICES_PER_FRAME = 200;
const MAX_TEXT = 2000;

const scalar = z.union([z.string().max(MAX_TEXT), z.number(), z.boolean(), z.null()]);
const noticeSchema = z.object({
  collection: z.enum(COLLECTIONS),
  id: z.string().max(100),
  action: z.enum(['removed', 'restored', 'reverted']),
  fields: z.record(z.string().max(100), scalar),
  dropped: z.array(z.string().max(100)).max(100).optional(),
  reason: z.string().max(MAX_TEXT),
}) satisfies z.ZodType<CompensationNotice>;
const framePayload = z.array(noticeSchema).min(1).max(MAX_NOTICES_PER_FRAME);

export function createNoticeStore(): NoticeStore {
  return createStore<CompensationNotices>({ batches: [] });
}

/**
 * Reads the payload of a MESSAGE_COMPENSATED frame (a varString of JSON notices); null when
 * it is truncated, not JSON or not notices. Never throws: it runs inside y-websocket's
 * message loop, where a throw would drop the socket's later messages.
 */
export function readNotices(decoder: decoding.Decoder): CompensationNotice[] | null {
  try {
    const parsed = framePayload.safeParse(JSON.parse(decoding.readVarString(decoder)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
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
