import { z } from 'zod';
import * as decoding from 'lib0/decoding';
import { COLLECTIONS, type CompensationNotice } from '../../../shared/index.ts';

// Apart from compensation-notices.ts (the store every page creates) because only the sync
// connection reads frames, and building the schema is work the page's start can skip
// (docs/web.md "A small entry").

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
