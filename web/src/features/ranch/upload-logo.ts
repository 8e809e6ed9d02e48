import type { UploadResult } from '../../../../shared/index.ts';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { compressPhoto } from '../../lib/compress-photo.ts';

/**
 * [L9] The logo goes up at once through the photo upload path ([I2]): an upload URL, then
 * the compressed bytes; answers the object path the form saves as `logoUrl`. Editing the
 * ranch's details needs a connection, so the logo does not wait in the photo outbox.
 */
export async function uploadLogo(file: File): Promise<string> {
  const photo = await compressPhoto(file);
  const { uploadURL, objectPath } = (await (await apiRequest('POST', '/api/objects/upload')).json()) as UploadResult;
  const response = await fetch(uploadURL, {
    method: 'PUT',
    credentials: 'include',
    headers: { 'Content-Type': photo.type },
    body: photo.bytes,
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    const message = typeof body?.message === 'string' ? body.message : 'The logo could not be uploaded.';
    throw new ApiError(response.status, message);
  }
  return ((await response.json()) as { objectPath?: string }).objectPath ?? objectPath;
}
