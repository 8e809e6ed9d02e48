import { HTTPException } from 'hono/http-exception';

/**
 * 413 that also closes the connection: the rest of the body was never read, so the socket
 * cannot carry another request (a client reusing it would see its next request fail).
 */
function tooLargeError(message: string): HTTPException {
  const res = Response.json({ message }, { status: 413, headers: { connection: 'close' } });
  return new HTTPException(413, { res, message });
}

/**
 * Reads a request body of at most `maxBytes`, refusing with 413 as soon as more arrives:
 * a declared Content-Length over the limit is refused before reading, and a chunked body
 * is counted while it streams, so nothing unbounded is ever buffered.
 */
export async function readBoundedBody(request: Request, maxBytes: number, tooLarge: string): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLargeError(tooLarge);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLargeError(tooLarge);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
