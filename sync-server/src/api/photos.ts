import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Sql } from '../db/client.ts';
import { requireWriter } from '../auth/middleware.ts';
import { apiError } from '../http/errors.ts';
import { refuseUnread } from '../http/refuse-unread.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import type { ImageType } from '../storage/image-type.ts';
import { findObjectMeta, objectPath, readObjectBytes } from '../storage/objects.ts';
import { DEFAULT_PHOTO_QUOTA_BYTES, photoBytesWithReserved, quotaMessage } from '../storage/photo-quota.ts';
import {
  DEFAULT_UPLOAD_LIMITS,
  SERVER_BUSY_RETRY_SECONDS,
  UploadAdmission,
  type UploadLimits,
  USER_BUSY_RETRY_SECONDS,
} from '../storage/upload-admission.ts';
import { discardChunks, receiveUpload } from '../storage/upload-chunks.ts';
import { findUploadToken, issueUploadToken, storeUpload, tokenFromUploadPath, uploadPath } from '../storage/upload-tokens.ts';
import { UserBuckets } from '../sync/limits.ts';
import { isUuid, MAX_PHOTO_BYTES, photoRegistrationInput, type UploadResult } from '../../../shared/index.ts';

const OBJECT_PATH = /^\/api\/objects\/([^/]+)$/;
const IMAGE_TYPES: ReadonlySet<string> = new Set<ImageType>([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/heic',
  'image/heif',
]);
const TOO_LARGE = `The photo is larger than ${MAX_PHOTO_BYTES} bytes (10 MB).`;
const NOT_AN_IMAGE = 'Only JPEG, PNG, WebP, GIF or HEIC/HEIF images can be uploaded.';
const NOT_OURS = 'photoURL must be an upload URL or photo path of this server';
const USER_BUSY = 'Your other photos are still uploading; this one is sent when they are done.';
const SERVER_BUSY = 'The server is receiving other photos; this one is sent in a moment.';
const TOO_MANY_URLS = 'Too many upload URLs asked for; try again in a minute.';

/** Upload URLs one user may ask for: a burst of 30 (a device's queue), then one every 2 s. */
const URLS_PER_SECOND = 0.5;
const URL_BURST = 30;

/** ETags in an If-None-Match header, weak or strong (RFC 9110 §13.1.2 compares weakly). */
function matchesETag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

function refusePhotoURL(message: string): never {
  throw apiError(400, message, [{ path: 'photoURL', message }]);
}

export type PhotoOptions = {
  /** What one user's stored uploads may take ([I7]). */
  quotaBytes?: number;
  /** Uploads in flight at once, per user and in all (upload-admission.ts). */
  uploadLimits?: UploadLimits;
};

/** Photo upload, registration and serving ([I2], [I5], docs/architecture.md "Photos"). */
export function photoRoutes(sql: Sql, allowedOrigins: readonly string[], options: PhotoOptions = {}) {
  const { quotaBytes = DEFAULT_PHOTO_QUOTA_BYTES, uploadLimits = DEFAULT_UPLOAD_LIMITS } = options;
  const app = new Hono<AuthedEnv>();
  const admission = new UploadAdmission(uploadLimits);
  const urlBuckets = new UserBuckets(URLS_PER_SECOND, URL_BURST);

  // [I5] Asking for upload URLs is rate-limited per user: each is a row until it is used or expires.
  app.use('/objects/upload', async (c, next) => {
    const userId = c.get('user').id;
    if (!urlBuckets.take(userId, 1)) {
      const seconds = Math.max(1, Math.ceil(urlBuckets.wait(userId) / 1000));
      throw new HTTPException(429, {
        res: Response.json({ message: TOO_MANY_URLS }, { status: 429, headers: { 'retry-after': String(seconds) } }),
      });
    }
    await next();
  });

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
    const request = c.req.raw;
    // Everything refused before the body is read is answered once the body has arrived (refuse-unread.ts).
    // Checked before the body is read, so a bad URL costs no upload; storeUpload checks again under a lock.
    const known = await findUploadToken(sql, token);
    if (!known) throw await refuseUnread(request, 404, 'No such upload URL.');
    if (known.userId !== userId) throw await refuseUnread(request, 403, 'Forbidden: this upload URL belongs to another user.');
    if (known.expired && !known.used) throw await refuseUnread(request, 410, 'This upload URL has expired; ask for a new one.');
    const declared = request.headers.get('content-length');
    const declaredBytes = declared === null ? undefined : Number(declared);
    if (declaredBytes !== undefined && !(declaredBytes <= MAX_PHOTO_BYTES)) throw await refuseUnread(request, 413, TOO_LARGE);

    // N3: a few uploads read at once, per user and in all; the next wait, unread, or are refused.
    const slot = await admission.admit(userId, request.signal);
    if (slot === 'user-busy') throw await refuseUnread(request, 429, USER_BUSY, { 'retry-after': String(USER_BUSY_RETRY_SECONDS) });
    if (slot === 'server-busy') throw await refuseUnread(request, 503, SERVER_BUSY, { 'retry-after': String(SERVER_BUSY_RETRY_SECONDS) });
    let attempt: string | undefined;
    try {
      // [I7] A user whose photos (with their other uploads in flight) already fill the quota is told before the body is read.
      if (!known.used) {
        const used = await photoBytesWithReserved(sql, userId, slot.othersReserved());
        const size = Math.max(1, declaredBytes ?? MAX_PHOTO_BYTES);
        if (used + size > quotaBytes) throw await refuseUnread(request, 413, quotaMessage(used, quotaBytes, size));
        slot.reserve(known.objectId, size);
      }
      // A URL already used only compares the bytes with its photo's (a retry whose answer was lost): nothing is written.
      const received = await receiveUpload(sql, request.body, { maxBytes: MAX_PHOTO_BYTES, store: !known.used });
      switch (received.kind) {
        case 'too-large':
          throw await refuseUnread(request, 413, TOO_LARGE);
        case 'not-an-image':
          throw await refuseUnread(request, 415, NOT_AN_IMAGE);
        case 'empty':
          throw apiError(400, 'The upload is empty.');
        case 'interrupted':
          throw apiError(400, 'The upload ended before all of its bytes arrived.');
      }
      attempt = received.stored ? received.attempt : undefined;
      const outcome = await storeUpload(sql, { token, userId, received, quotaBytes });
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
          throw apiError(413, quotaMessage(outcome.used, quotaBytes, received.size));
      }
    } finally {
      // The chunks, in a statement of their own after the storing transaction.
      if (attempt) await discardChunks(sql, attempt).catch(() => {});
      slot.release();
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
      // N4: a photo is never a page: no script runs, nothing loads, even if one were opened as one.
      'content-security-policy': "sandbox; default-src 'none'",
      etag,
    };
    if (matchesETag(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    const bytes = await readObjectBytes(sql, object.id);
    if (!bytes) throw apiError(404, 'No such photo.');
    // Only the image types uploads accept are served as such; anything else (a row written
    // past the upload checks) is bytes to save, never to show.
    const image = IMAGE_TYPES.has(object.contentType);
    return c.body(new Uint8Array(bytes), 200, {
      ...headers,
      'content-type': image ? object.contentType : 'application/octet-stream',
      ...(image ? {} : { 'content-disposition': 'attachment' }),
    });
  });

  return app;
}
