import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Sql } from '../db/client.ts';
import { requireWriter } from '../auth/middleware.ts';
import { readBoundedBody } from '../http/bounded-body.ts';
import { apiError } from '../http/errors.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import { detectImageType } from '../storage/image-type.ts';
import { findObjectMeta, objectPath, readObjectBytes } from '../storage/objects.ts';
import { DEFAULT_PHOTO_QUOTA_BYTES, photoBytesOf, quotaMessage } from '../storage/photo-quota.ts';
import { findUploadToken, issueUploadToken, storeUpload, tokenFromUploadPath, uploadPath } from '../storage/upload-tokens.ts';
import { isUuid, MAX_PHOTO_BYTES, photoRegistrationInput, type UploadResult } from '../../../shared/index.ts';

const OBJECT_PATH = /^\/api\/objects\/([^/]+)$/;
const TOO_LARGE = `The photo is larger than ${MAX_PHOTO_BYTES} bytes (10 MB).`;
const NOT_AN_IMAGE = 'Only JPEG, PNG, WebP, GIF or HEIC/HEIF images can be uploaded.';
const NOT_OURS = 'photoURL must be an upload URL or photo path of this server';

/** ETags in an If-None-Match header, weak or strong (RFC 9110 §13.1.2 compares weakly). */
function matchesETag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

/** [I7] 413 before the body is read: the connection closes, as the unread rest cannot carry another request. */
function storageFull(message: string): HTTPException {
  return new HTTPException(413, { res: Response.json({ message }, { status: 413, headers: { connection: 'close' } }), message });
}

function refusePhotoURL(message: string): never {
  throw apiError(400, message, [{ path: 'photoURL', message }]);
}

/**
 * Photo upload, registration and serving ([I2], [I5], docs/architecture.md "Photos").
 * `quotaBytes`: what one user's stored uploads may take ([I7]).
 */
export function photoRoutes(sql: Sql, allowedOrigins: readonly string[], quotaBytes = DEFAULT_PHOTO_QUOTA_BYTES) {
  const app = new Hono<AuthedEnv>();

  // [I2] An upload URL is minted by a POST, which the Origin check guards like every write.
  const mintUploadUrl = async (c: Context<AuthedEnv>) => {
    const { token, objectId } = await issueUploadToken(sql, c.get('user').id);
    c.header('cache-control', 'no-store');
    return c.json({ uploadURL: uploadPath(token), objectPath: objectPath(objectId) } satisfies UploadResult);
  };
  app.post('/objects/upload', requireWriter, mintUploadUrl);
  // Apps installed before the POST ask with a GET until they update: served only to this
  // origin's own requests (a browser names another site in Sec-Fetch-Site).
  app.get('/objects/upload', requireWriter, async (c) => {
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin') throw apiError(403, 'Forbidden: cross-origin request');
    return mintUploadUrl(c);
  });

  app.put('/objects/upload/:token', requireWriter, async (c) => {
    const userId = c.get('user').id;
    const token = c.req.param('token');
    // Checked before the body is read, so a bad URL costs no upload; storeUpload checks again under a lock.
    const known = await findUploadToken(sql, token);
    if (!known) throw apiError(404, 'No such upload URL.');
    if (known.userId !== userId) throw apiError(403, 'Forbidden: this upload URL belongs to another user.');
    if (known.expired && !known.used) throw apiError(410, 'This upload URL has expired; ask for a new one.');
    // [I7] A user whose photos already fill the quota is told before the body is read.
    if (!known.used) {
      const used = await photoBytesOf(sql, userId);
      const declared = Number(c.req.header('content-length') ?? 1) || 1;
      if (used + Math.min(declared, MAX_PHOTO_BYTES) > quotaBytes) throw storageFull(quotaMessage(used, quotaBytes, declared));
    }
    const bytes = await readBoundedBody(c.req.raw, MAX_PHOTO_BYTES, TOO_LARGE);
    if (bytes.byteLength === 0) throw apiError(400, 'The upload is empty.');
    const contentType = detectImageType(bytes);
    if (!contentType) throw apiError(415, NOT_AN_IMAGE);
    const outcome = await storeUpload(sql, { token, userId, contentType, bytes, quotaBytes });
    switch (outcome.kind) {
      case 'stored':
        return c.json({ objectPath: objectPath(outcome.objectId) });
      case 'unknown':
        throw apiError(404, 'No such upload URL.');
      case 'foreign':
        throw apiError(403, 'Forbidden: this upload URL belongs to another user.');
      case 'expired':
        throw apiError(410, 'This upload URL has expired; ask for a new one.');
      case 'used':
        throw apiError(410, 'This upload URL has already been used for another file; ask for a new one.');
      case 'full':
        throw apiError(413, quotaMessage(outcome.used, quotaBytes, bytes.byteLength));
    }
  });

  app.put('/horse-photos', requireWriter, validate('json', photoRegistrationInput), async (c) => {
    const userId = c.get('user').id;
    const ownOrigin = new URL(c.req.url).origin;
    let url: URL;
    try {
      url = new URL(c.req.valid('json').photoURL, ownOrigin);
    } catch {
      return refusePhotoURL(NOT_OURS);
    }
    if (url.origin !== ownOrigin && !allowedOrigins.includes(url.origin)) refusePhotoURL(NOT_OURS);

    const token = tokenFromUploadPath(url.pathname);
    if (token) {
      const upload = await findUploadToken(sql, token);
      if (!upload || upload.userId !== userId) refusePhotoURL('photoURL: no such upload');
      if (!upload.used) refusePhotoURL('photoURL: nothing has been uploaded to this URL yet');
      return c.json({ objectPath: objectPath(upload.objectId) });
    }
    const id = OBJECT_PATH.exec(url.pathname)?.[1];
    if (!id || !isUuid(id)) refusePhotoURL(NOT_OURS);
    const object = await findObjectMeta(sql, id);
    if (!object || object.ownerId !== userId) refusePhotoURL('photoURL: no such upload');
    return c.json({ objectPath: objectPath(object.id) });
  });

  app.get('/objects/:id', async (c) => {
    const id = c.req.param('id');
    const object = isUuid(id) ? await findObjectMeta(sql, id) : undefined;
    if (!object) throw apiError(404, 'No such photo.');
    const etag = `"${object.sha256}"`;
    const headers = {
      'cache-control': 'private, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      etag,
    };
    if (matchesETag(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    const bytes = await readObjectBytes(sql, object.id);
    if (!bytes) throw apiError(404, 'No such photo.');
    return c.body(new Uint8Array(bytes), 200, { ...headers, 'content-type': object.contentType });
  });

  return app;
}
