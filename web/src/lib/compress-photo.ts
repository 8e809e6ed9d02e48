import { detectImageType } from '../../../shared/image-type.ts';
import { MAX_PHOTO_BYTES } from '../../../shared/index.ts';

/** The long side of a stored photo: plenty for a horse on any screen, ~0.5–1.5 MB as JPEG. */
export const PHOTO_LONG_SIDE = 2048;
export const PHOTO_QUALITY = 0.85;

export type CompressedPhoto = { bytes: ArrayBuffer; type: string; width: number; height: number; originalSize: number };

export class PhotoTooLargeError extends Error {
  constructor(size: number) {
    super(`This photo is too large (${(size / 1_048_576).toFixed(1)} MB) even after compression. Photos can be at most 10 MB.`);
    this.name = 'PhotoTooLargeError';
  }
}

export class PhotoUnreadableError extends Error {
  constructor() {
    super('This file could not be read as a photo. Choose a JPEG, PNG, WebP or HEIC image.');
    this.name = 'PhotoUnreadableError';
  }
}

type Attempt = { longSide: number; quality: number };
/** Tried in order until the result fits the [I1] limit; the first fits all but freak images. */
const ATTEMPTS: Attempt[] = [
  { longSide: PHOTO_LONG_SIDE, quality: PHOTO_QUALITY },
  { longSide: PHOTO_LONG_SIDE, quality: 0.7 },
  { longSide: 1600, quality: 0.7 },
];

/**
 * Shrinks a picked photo on the device before it is stored: long side ≤ 2048 px, JPEG at
 * quality 0.85 (JPEG rather than WebP because Safari's canvas cannot encode WebP and
 * silently gives PNG). The camera's EXIF orientation is applied while decoding, so the
 * pixels come out upright. The [I1] limit (10485760 bytes) is checked on the result:
 * a 12 MB phone photo is fine, and the message shows only when even the smallest attempt
 * does not fit. A file the browser cannot decode is kept as it is only when its bytes are
 * HEIC or HEIF (an iPhone's photo outside Safari, which the server accepts) and it fits;
 * anything else (a text file renamed .jpg, a broken image) is refused ([I10]), whatever its
 * name or type says.
 */
export async function compressPhoto(file: Blob): Promise<CompressedPhoto> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    const type = detectImageType(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
    if (type !== 'image/heic' && type !== 'image/heif') throw new PhotoUnreadableError();
    if (file.size > MAX_PHOTO_BYTES) throw new PhotoTooLargeError(file.size);
    return { bytes: await file.arrayBuffer(), type, width: 0, height: 0, originalSize: file.size };
  }
  try {
    let smallest = Infinity;
    for (const attempt of ATTEMPTS) {
      const { blob, width, height } = await encode(bitmap, attempt);
      if (blob.size <= MAX_PHOTO_BYTES) {
        return { bytes: await blob.arrayBuffer(), type: blob.type || 'image/jpeg', width, height, originalSize: file.size };
      }
      smallest = Math.min(smallest, blob.size);
    }
    throw new PhotoTooLargeError(smallest);
  } finally {
    bitmap.close();
  }
}

async function encode(bitmap: ImageBitmap, { longSide, quality }: Attempt): Promise<{ blob: Blob; width: number; height: number }> {
  const scale = Math.min(1, longSide / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) throw new PhotoUnreadableError();
    draw(context, bitmap, width, height);
    return { blob: await canvas.convertToBlob({ type: 'image/jpeg', quality }), width, height };
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new PhotoUnreadableError();
  draw(context, bitmap, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
  if (!blob) throw new PhotoUnreadableError();
  return { blob, width, height };
}

function draw(
  context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D,
  bitmap: ImageBitmap,
  width: number,
  height: number,
): void {
  // JPEG has no transparency: a transparent PNG would otherwise turn black.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
}
