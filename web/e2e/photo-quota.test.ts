import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { makeCameraPhoto } from './support/photo.ts';
import { fillHorse, navigate, record } from './support/screens.ts';
import { restClient, sessionCookie, signInThroughUi } from './support/session.ts';

const HORSE = { breed: 'Quarter Horse', color: 'Bay', gender: 'Mare' };
const MiB = 1024 * 1024;

/**
 * [I7]: a user whose photos fill their storage (here RANCH_PHOTO_QUOTA_MIB=1) is told why
 * a new photo was not stored, and the photo stays on the device, waiting, instead of being
 * sent again and again.
 */
describe('photo storage full', () => {
  let server: AppServer;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;
  let cookie: string;

  beforeAll(async () => {
    server = await startAppServer({ RANCH_PHOTO_QUOTA_MIB: '1' });
    browser = await launchChromium();
    cookie = await sessionCookie(server, ADMIN);
    api = restClient(server, cookie);
    for (const [kind, name] of [
      ['breeds', HORSE.breed],
      ['colors', HORSE.color],
      ['genders', HORSE.gender],
    ] as const) {
      await api(`/api/${kind}`, { method: 'POST', body: JSON.stringify({ name }) });
    }
    // Earlier photos of this user take all but 100 bytes of the megabyte.
    const { uploadURL } = await api<{ uploadURL: string }>('/api/objects/upload', { method: 'POST' });
    const filler = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(MiB - 100 - 6), Buffer.from([0xff, 0xd9])]);
    const stored = await fetch(`${server.url}${uploadURL}`, { method: 'PUT', body: filler, headers: { cookie, origin: server.url } });
    expect(stored.status).toBe(200);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('[I7] a photo past the storage shows why and stays waiting on the device', async () => {
    const page = await signInThroughUi(await browser.newContext(), server, ADMIN);
    await navigate(page, 'Horses', 'Horse Inventory');
    await page.getByRole('button', { name: 'Add Horse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Horse' });
    await expect.poll(() => dialog.getByLabel('Breed').locator('option', { hasText: HORSE.breed }).count()).toBe(1);
    await fillHorse(dialog, { name: 'Full Barn', ...HORSE });
    const photo = await makeCameraPhoto(page, 640, 480, 0.9);
    await dialog.getByLabel('Photo').setInputFiles({ name: 'IMG_0002.jpg', mimeType: 'image/jpeg', buffer: photo });
    await dialog.getByText(/^Photo ready/).waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Create Horse' }).click();

    const notice = page.getByRole('region', { name: /Notifications/ }).getByText(/^Failed to process photo upload: Photo storage full: /);
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toContain('your photos take 1.0 MB of your 1.0 MB');
    await page.getByText('1 photo waiting').waitFor();

    // The horse is saved with its photo still on the device; nothing more was stored.
    await expect
      .poll(
        async () =>
          (await api<{ name: string; photoUrl: string | null }[]>('/api/horses')).find((horse) => horse.name === 'Full Barn')?.photoUrl ??
          null,
      )
      .toMatch(/^outbox:/);
    await expect
      .poll(() => record(page, 'Full Barn').first().getByRole('img', { name: 'Photo of Full Barn', exact: true }).getAttribute('src'))
      .toMatch(/^blob:/);
  });
});
