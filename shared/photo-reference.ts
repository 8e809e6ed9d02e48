import { isEntityId } from './ids.ts';

// Apart from schemas/photo.ts (which re-exports all of it) because that one builds a zod
// schema when loaded, and the horse list needs only this check (docs/web.md "A small entry").

/** Served photos live under this path: `/api/objects/<uuid>`. */
export const OBJECT_PATH_PREFIX = '/api/objects/';

/**
 * A horse whose photo is still in a device's outbox has `photoUrl` = `outbox:<uuid>`: the
 * device that took it shows the stored bytes, every other device "photo on its way".
 */
export const OUTBOX_PREFIX = 'outbox:';

/**
 * [I6] What a horse's `photoUrl` may be: a photo of this server (`/api/objects/<uuid>`) or one
 * still in a device's outbox (`outbox:<uuid>`). Every device renders it as an image, so
 * anything else — another site that tracks who looks, `/api/logout` that signs the viewer
 * out — is refused by REST and written back on the socket.
 */
export function isPhotoReference(value: string): boolean {
  for (const prefix of [OBJECT_PATH_PREFIX, OUTBOX_PREFIX]) {
    if (value.startsWith(prefix)) return isEntityId(value.slice(prefix.length));
  }
  return false;
}

export const PHOTO_REFERENCE_MESSAGE = 'Photo must be one uploaded to this ranch';
