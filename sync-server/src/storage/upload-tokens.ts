import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import type { Sql } from '../db/client.ts';
import { newId } from '../../../shared/index.ts';
import { findObjectMeta } from './objects.ts';
import { lockPhotoBytesOf } from './photo-quota.ts';
import { insertObjectFromChunks, type Received } from './upload-chunks.ts';

/**
 * Single-use upload URLs bound to the user who asked for one. Like session tokens, only
 * the SHA-256 of the URL's random part is stored. The object id is chosen up front, so
 * the upload result can name the objectPath the photo will have ([I2]).
 */
export const UPLOAD_URL_LIFETIME_MS = 15 * 60 * 1000;
const UPLOAD_PATH = '/api/objects/upload/';
const TOKEN_PATTERN = /^[a-z2-7]{32}$/;

export function uploadPath(token: string): string {
  return UPLOAD_PATH + token;
}

/** The token of one of our upload paths, or undefined. */
export function tokenFromUploadPath(path: string): string | undefined {
  if (!path.startsWith(UPLOAD_PATH)) return undefined;
  const token = path.slice(UPLOAD_PATH.length);
  return TOKEN_PATTERN.test(token) ? token : undefined;
}

function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export function sha256Hex(bytes: Uint8Array): string {
  return encodeHexLowerCase(sha256(bytes));
}

export async function issueUploadToken(sql: Sql, userId: string): Promise<{ token: string; objectId: string; expiresAt: Date }> {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  const token = encodeBase32LowerCaseNoPadding(bytes);
  const objectId = newId();
  const expiresAt = new Date(Date.now() + UPLOAD_URL_LIFETIME_MS);
  // Unused URLs are forgotten a day after expiry (until then a late PUT hears 410, not 404).
  // Used ones stay: they map an upload URL to its object for registration and retries.
  await sql`delete from upload_tokens where used_at is null and expires_at < now() - interval '1 day'`;
  await sql`
    insert into upload_tokens (token_hash, user_id, object_id, expires_at)
    values (${hashToken(token)}, ${userId}, ${objectId}, ${expiresAt})`;
  return { token, objectId, expiresAt };
}

export type UploadToken = { userId: string; objectId: string; expired: boolean; used: boolean };

export async function findUploadToken(sql: Sql, token: string): Promise<UploadToken | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await sql<UploadToken[]>`
    select user_id as "userId", object_id as "objectId", expires_at <= now() as expired, used_at is not null as used
    from upload_tokens where token_hash = ${hashToken(token)}`;
  return row;
}

export type UploadOutcome =
  | { kind: 'stored'; objectId: string }
  | { kind: 'unknown' }
  | { kind: 'foreign' }
  | { kind: 'expired' }
  | { kind: 'used' }
  /** [I7] The user's photos would take more than their quota: nothing is stored, the URL stays unused. */
  | { kind: 'full'; used: number };

/**
 * Stores the bytes sent to an upload URL (received into upload_chunks), once, if the user's
 * photos then take no more than `quotaBytes` ([I7]). The token row is locked, so two PUTs of
 * one URL (an outbox retry racing its original, on any instance) create one object. A
 * repeat of the same bytes to a used URL is answered like the first PUT, so a client
 * whose response was lost can retry safely; different bytes to a used URL are refused.
 */
export async function storeUpload(
  sql: Sql,
  upload: { token: string; userId: string; received: Extract<Received, { kind: 'received' }>; quotaBytes: number },
): Promise<UploadOutcome> {
  const { received } = upload;
  return sql.begin(async (tx) => {
    const [row] = await tx<UploadToken[]>`
      select user_id as "userId", object_id as "objectId", expires_at <= now() as expired, used_at is not null as used
      from upload_tokens where token_hash = ${hashToken(upload.token)} for update`;
    if (!row) return { kind: 'unknown' } as const;
    if (row.userId !== upload.userId) return { kind: 'foreign' } as const;
    if (row.used) {
      const stored = await findObjectMeta(tx, row.objectId);
      return stored?.sha256 === received.sha256 ? ({ kind: 'stored', objectId: row.objectId } as const) : ({ kind: 'used' } as const);
    }
    if (row.expired) return { kind: 'expired' } as const;
    // Only a URL already used has its bytes counted and not kept; one unused has no other way of turning unused again.
    if (!received.stored) return { kind: 'unknown' } as const;
    const used = await lockPhotoBytesOf(tx, upload.userId);
    if (used + received.size > upload.quotaBytes) return { kind: 'full', used } as const;
    await insertObjectFromChunks(tx, {
      id: row.objectId,
      ownerId: upload.userId,
      contentType: received.contentType,
      sha256: received.sha256,
      size: received.size,
      attempt: received.attempt,
    });
    await tx`update upload_tokens set used_at = now() where token_hash = ${hashToken(upload.token)}`;
    return { kind: 'stored', objectId: row.objectId } as const;
  });
}
