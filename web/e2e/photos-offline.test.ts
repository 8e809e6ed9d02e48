import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { makeCameraPhoto } from './support/photo.ts';
import { fillHorse, navigate, record, toast } from './support/screens.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

type ServerHorse = { name: string; photoUrl: string | null };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const HORSE = { breed: 'Quarter Horse', color: 'Bay', gender: 'Mare' };

/**
 * [I4]: a photo taken in a paddock with no signal is compressed, kept in the
 * outbox through reloads, and reaches the office when the signal returns; an expired
 * session on the way loses nothing.
 */
describe('photos taken offline', () => {
  let server: AppServer;
  let link: PhoneLink;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;
  let photo: Buffer;

  const horseOnServer = async (name: string) => (await api<ServerHorse[]>('/api/horses')).find((horse) => horse.name === name);

  /** The Horses screen on a phone whose worker controls it, with the lookups synced. */
  async function phoneOnHorses(): Promise<Page> {
    const context = await browser.newContext(PHONE);
    const page = await signInThroughUi(context, link, ADMIN);
    await serviceWorkerInControl(page);
    await navigate(page, 'Horses', 'Horse Inventory');
    await page.getByRole('button', { name: 'Add Horse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Horse' });
    await expect.poll(() => dialog.getByLabel('Breed').locator('option', { hasText: HORSE.breed }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    return page;
  }

  /** Adds a horse with the camera photo; returns the hint that reports the compression. */
  async function addHorseWithPhoto(page: Page, name: string): Promise<string> {
    await page.getByRole('button', { name: 'Add Horse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Horse' });
    await fillHorse(dialog, { name, ...HORSE });
    await dialog.getByLabel('Photo').setInputFiles({ name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: photo });
    const hint = dialog.getByText(/^Photo ready/);
    await hint.waitFor({ timeout: 30_000 });
    await dialog.getByRole('img', { name: `Photo of ${name}` }).waitFor();
    const text = (await hint.textContent()) ?? '';
    await dialog.getByRole('button', { name: 'Create Horse' }).click();
    await toast(page, 'Horse created successfully');
    return text;
  }

  const photoIn = (page: Page, name: string) =>
    record(page, name)
      .first()
      .getByRole('img', { name: `Photo of ${name}`, exact: true });

  beforeAll(async () => {
    server = await startAppServer();
    link = await startPhoneLink(server);
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
    for (const [kind, name] of [
      ['breeds', HORSE.breed],
      ['colors', HORSE.color],
      ['genders', HORSE.gender],
    ] as const) {
      await api(`/api/${kind}`, { method: 'POST', body: JSON.stringify({ name }) });
    }
    const scratch = await browser.newPage();
    photo = await makeCameraPhoto(scratch);
    await scratch.close();
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  it('[I4] is kept through an offline reload, then served by the server and shown in the office', async () => {
    expect(photo.length).toBeGreaterThan(10_485_760);
    const page = await phoneOnHorses();
    const office = await signInThroughUi(await browser.newContext(), server, ADMIN);
    await navigate(office, 'Horses', 'Horse Inventory');

    await link.setOffline(page.context(), true);
    await page.reload();
    await page.getByRole('heading', { name: 'Horse Inventory' }).waitFor();
    const hint = await addHorseWithPhoto(page, 'Paddock Photo');
    console.log(`photo: ${photo.length} bytes taken; ${hint}`);
    await expect.poll(() => photoIn(page, 'Paddock Photo').getAttribute('src')).toMatch(/^blob:/);
    await page.getByText('1 photo waiting').waitFor();

    await page.reload();
    await expect.poll(() => photoIn(page, 'Paddock Photo').getAttribute('src')).toMatch(/^blob:/);
    expect(await photoIn(page, 'Paddock Photo').evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBe(2048);
    expect(await horseOnServer('Paddock Photo')).toBeUndefined();

    const reconnected = Date.now();
    await link.setOffline(page.context(), false);
    await expect
      .poll(async () => (await horseOnServer('Paddock Photo'))?.photoUrl ?? null, { timeout: 60_000, interval: 100 })
      .toMatch(/^\/api\/objects\//);
    console.log(`reconnect → photo on the server: ${Date.now() - reconnected} ms`);
    await toast(page, 'Photo uploaded successfully');
    await page.getByText('1 photo waiting').waitFor({ state: 'detached' });

    const { photoUrl } = (await horseOnServer('Paddock Photo')) as ServerHorse;
    const served = await fetch(`${server.url}${photoUrl}`, { headers: { cookie: await sessionCookie(server, ADMIN) } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^image\//);
    const servedBytes = (await served.arrayBuffer()).byteLength;
    console.log(`served photo: ${servedBytes} bytes`);
    expect(servedBytes).toBeLessThan(10_485_760);
    await expect.poll(() => photoIn(page, 'Paddock Photo').getAttribute('src')).toBe(photoUrl);

    // The office, a second browser, shows the served photo without reloading.
    const inOffice = photoIn(office, 'Paddock Photo');
    await expect.poll(() => inOffice.getAttribute('src'), { timeout: 30_000 }).toBe(photoUrl);
    expect(await inOffice.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBe(2048);
  });

  it('[O3] [A13] a session that expired while offline: sign in again, and the horse and its photo still arrive', async () => {
    const page = await phoneOnHorses();
    // Chromium's offline mode keeps an open WebSocket: reload so the app really has no signal.
    await link.setOffline(page.context(), true);
    await page.reload();
    await page.getByRole('heading', { name: 'Horse Inventory' }).waitFor();
    await addHorseWithPhoto(page, 'Late Signal');
    await page.getByText('1 photo waiting').waitFor();

    // Meanwhile the session ends on the server (signed out elsewhere, or expired).
    const cookies = await page.context().cookies(server.url);
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const logout = await fetch(`${server.url}/api/logout`, { method: 'POST', headers: { cookie, origin: server.url } });
    expect(logout.status).toBe(204);

    await link.setOffline(page.context(), false);
    // [A13]: signed out, with what could not be sent kept on the device and counted.
    await page
      .getByText('1 change and 1 photo could not be sent. They are kept on this device until admin@ranch.test signs in again.')
      .waitFor({ timeout: 30_000 });
    expect(await horseOnServer('Late Signal')).toBeUndefined();
    await page.getByRole('button', { name: 'Sign In to Continue' }).click();
    await page.waitForURL('**/api/login');

    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect.poll(async () => (await horseOnServer('Late Signal'))?.photoUrl ?? null, { timeout: 60_000 }).toMatch(/^\/api\/objects\//);
    await page.getByText('All changes saved').waitFor({ timeout: 30_000 });
    await navigate(page, 'Horses', 'Horse Inventory');
    const { photoUrl } = (await horseOnServer('Late Signal')) as ServerHorse;
    await expect.poll(() => photoIn(page, 'Late Signal').getAttribute('src')).toBe(photoUrl);
  });
});
