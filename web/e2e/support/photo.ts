import type { Page } from 'playwright-core';

/**
 * A phone-camera-like JPEG made in the browser: 4032×3024 (12 MP), smooth gradients under
 * strong grain, at high quality — about 12 MB, like an unedited phone photo, and as hard
 * to compress as one. Returned as bytes for `setInputFiles`.
 */
export async function makeCameraPhoto(page: Page, width = 4032, height = 3024, quality = 0.99): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ({ width, height, quality }) => {
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      const image = context.createImageData(width, height);
      const pixels = image.data;
      let seed = 12345;
      const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
      for (let y = 0; y < height; y += 1) {
        for (let x = 0; x < width; x += 1) {
          const i = (y * width + x) * 4;
          const grain = (random() - 0.5) * 140;
          pixels[i] = 120 + 80 * Math.sin(x / 300) + grain;
          pixels[i + 1] = 110 + 60 * Math.cos(y / 250) + grain;
          pixels[i + 2] = 90 + 50 * Math.sin((x + y) / 400) + grain;
          pixels[i + 3] = 255;
        }
      }
      context.putImageData(image, 0, 0);
      const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(binary);
    },
    { width, height, quality },
  );
  return Buffer.from(base64, 'base64');
}
