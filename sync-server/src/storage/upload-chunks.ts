import { createHash, randomUUID } from 'node:crypto';
import type { Sql, Tx } from '../db/client.ts';
import { detectImageType, type ImageType } from './image-type.ts';

/**
 * What one statement of an upload writes. A whole photo in one statement held the embedded
 * database's only connection for over a second, and every other request of the ranch waited
 * behind it; a 256 KiB row takes a few tens of milliseconds.
 */
export const CHUNK_BYTES = 256 * 1024;

/** Bytes detectImageType reads: the type is known, or refused, once this many have arrived. */
const TYPE_BYTES = 12;

export type Received =
  /** `attempt` names the rows in upload_chunks (none when the bytes were only counted and hashed). */
  | { kind: 'received'; attempt: string; size: number; sha256: string; contentType: ImageType; stored: boolean }
  | { kind: 'empty' }
  | { kind: 'too-large' }
  | { kind: 'not-an-image' }
  /** The client stopped sending before the end (a dropped connection). */
  | { kind: 'interrupted' };

/**
 * Reads an upload's body as it arrives, never holding more than a chunk of it: counts it
 * (more than `maxBytes` stops at once), hashes it, reads its type from the first bytes and,
 * with `store`, writes it to upload_chunks a chunk per statement. On anything but `received`
 * the rows written are removed again and the body is left where it stopped (the caller
 * answers and discards the rest). The caller removes a received upload's rows once it is
 * done with them, stored or not (`discardChunks`).
 */
export async function receiveUpload(
  sql: Sql,
  body: ReadableStream<Uint8Array> | null,
  options: { maxBytes: number; store: boolean },
): Promise<Received> {
  const attempt = randomUUID();
  const hash = createHash('sha256');
  let size = 0;
  let seq = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let contentType: ImageType | null | undefined;
  const flush = async () => {
    const bytes = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    if (contentType === undefined) {
      contentType = detectImageType(bytes);
      if (!contentType) return false;
    }
    if (options.store && bytes.byteLength > 0)
      await sql`insert into upload_chunks (attempt, seq, bytes) values (${attempt}, ${seq++}, ${bytes})`;
    return true;
  };
  const refuse = async (outcome: Received, reader?: ReadableStreamDefaultReader<Uint8Array>) => {
    reader?.releaseLock();
    if (seq > 0) await discardChunks(sql, attempt);
    return outcome;
  };
  const reader = body?.getReader();
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;
      try {
        chunk = reader ? await reader.read() : { done: true, value: undefined };
      } catch {
        return await refuse({ kind: 'interrupted' });
      }
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > options.maxBytes) return await refuse({ kind: 'too-large' }, reader);
      hash.update(chunk.value);
      pending.push(chunk.value);
      pendingBytes += chunk.value.byteLength;
      const typeKnown = contentType !== undefined || pendingBytes >= TYPE_BYTES;
      if (typeKnown && (pendingBytes >= CHUNK_BYTES || contentType === undefined) && !(await flush())) {
        return await refuse({ kind: 'not-an-image' }, reader);
      }
    }
    if (size === 0) return { kind: 'empty' };
    if (!(await flush()) || !contentType) return await refuse({ kind: 'not-an-image' });
    return { kind: 'received', attempt, size, sha256: hash.digest('hex'), contentType, stored: options.store };
  } catch (error) {
    await discardChunks(sql, attempt).catch(() => {});
    throw error;
  }
}

/**
 * Inside the upload's transaction: the photo's row, its bytes joined from the attempt's
 * chunks in order (one statement, done by the database alone). The chunks are removed after
 * the commit (`discardChunks`), which keeps the transaction, and the connection it holds, short.
 */
export async function insertObjectFromChunks(
  tx: Tx,
  object: { id: string; ownerId: string; contentType: ImageType; sha256: string; size: number; attempt: string },
): Promise<void> {
  await tx`
    insert into objects (id, owner_id, content_type, size, sha256, bytes)
    select ${object.id}, ${object.ownerId}, ${object.contentType}, ${object.size}, ${object.sha256}, string_agg(bytes, ''::bytea order by seq)
    from upload_chunks where attempt = ${object.attempt}`;
}

export async function discardChunks(sql: Sql | Tx, attempt: string): Promise<void> {
  await sql`delete from upload_chunks where attempt = ${attempt}`;
}

/** Chunks of uploads older than this were cut short by a crash or a stop (an upload takes seconds). */
export async function removeStaleChunks(sql: Sql | Tx): Promise<number> {
  const removed = await sql`delete from upload_chunks where created_at < now() - interval '1 hour'`;
  return removed.count;
}
