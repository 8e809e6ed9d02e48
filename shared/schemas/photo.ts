import { z } from 'zod';

/** `GET /api/objects/upload`: PUT the photo's bytes to `uploadURL` (same origin, single use); `objectPath` is where it will be served. */
export type UploadResult = { uploadURL: string; objectPath: string };

/** `PUT /api/horse-photos`: an upload URL (relative or absolute) or object path of ours. */
export const photoRegistrationInput = z.object({
  photoURL: z
    .string({ error: 'photoURL is required' })
    .trim()
    .min(1, 'photoURL is required')
    .max(2048, 'photoURL must be at most 2048 characters'),
});

export { isPhotoReference, OBJECT_PATH_PREFIX, OUTBOX_PREFIX, PHOTO_REFERENCE_MESSAGE } from '../photo-reference.ts';
