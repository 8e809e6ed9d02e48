import { describe, expect, it } from 'vitest';
import { compressPhoto, PhotoTooLargeError, PhotoUnreadableError } from './compress-photo.ts';

/**
 * [I10] What the device keeps when it cannot decode a file (here: no decoder at all, as for
 * HEIC outside Safari): only bytes that are HEIC or HEIF, whatever the file's name or type says.
 */
const heic = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set([0, 0, 0, 0x18], 0);
  bytes.set(
    [...'ftypheic'].map((c) => c.charCodeAt(0)),
    4,
  );
  return bytes;
};

describe('compressPhoto, for a file the browser cannot decode', () => {
  it('refuses a text file renamed .jpg, typed image/jpeg', async () => {
    const text = new File(['Feed: 2 flakes of hay, morning and evening.'], 'notes.jpg', { type: 'image/jpeg' });
    await expect(compressPhoto(text)).rejects.toThrow(PhotoUnreadableError);
    await expect(compressPhoto(text)).rejects.toThrow('This file could not be read as a photo. Choose a JPEG, PNG, WebP or HEIC image.');
  });

  it('refuses a broken JPEG (its header, then nothing a decoder can read)', async () => {
    const broken = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])], 'IMG_0003.jpg', {
      type: 'image/jpeg',
    });
    await expect(compressPhoto(broken)).rejects.toThrow(PhotoUnreadableError);
  });

  it("keeps an iPhone's HEIC as it is, typed from its bytes, when it fits", async () => {
    const photo = await compressPhoto(new File([heic(4096)], 'IMG_0004.HEIC', { type: '' }));
    expect(photo.type).toBe('image/heic');
    expect(photo.bytes.byteLength).toBe(4096);
    expect(photo.originalSize).toBe(4096);
  });

  it('refuses a HEIC over the 10 MB limit as too large', async () => {
    await expect(compressPhoto(new File([heic(10_485_761)], 'IMG_0005.HEIC'))).rejects.toThrow(PhotoTooLargeError);
  });
});
