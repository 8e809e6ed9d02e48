import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody } from '../../../shared/index.ts';

/**
 * What a refused request may still send after its answer is decided: more than any photo,
 * so every refused upload is read to its end. A body declared larger is not read at all.
 */
export const DISCARD_LIMIT_BYTES = 32 * 1024 * 1024;
/** How long the rest may take to arrive (nginx's `lingering_time`). */
export const DISCARD_TIMEOUT_MS = 30_000;

/**
 * Reads the rest of a request body and throws it away, up to `limitBytes` and `timeoutMs`;
 * true when the body ended within both.
 */
export async function discardBody(request: Request, limitBytes = DISCARD_LIMIT_BYTES, timeoutMs = DISCARD_TIMEOUT_MS): Promise<boolean> {
  const declared = request.headers.get('content-length');
  if (declared !== null && !(Number(declared) <= limitBytes)) return false;
  if (!request.body) return true;
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = request.body.getReader();
  } catch {
    return false; // already read elsewhere
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    let read = 0;
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === 'timeout') break;
      if (next.done) return true;
      read += next.value.byteLength;
      if (read > limitBytes) break;
    }
    await reader.cancel().catch(() => {});
    return false;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A refusal decided before (or while) a body was read, answered only once the rest of the
 * body has arrived and been thrown away: a client that sends its whole body before reading
 * the answer (curl without `Expect`, Node's fetch) then reads this answer, where closing at
 * once would reset the connection under its upload and lose the answer. A body past the
 * bounds of `discardBody` is not waited for: the answer then closes the connection.
 */
export async function refuseUnread(
  request: Request,
  status: ContentfulStatusCode,
  message: string,
  headers: Record<string, string> = {},
): Promise<HTTPException> {
  const drained = await discardBody(request);
  const body: ErrorBody = { message };
  const res = Response.json(body, { status, headers: drained ? headers : { ...headers, connection: 'close' } });
  return new HTTPException(status, { res, message });
}
