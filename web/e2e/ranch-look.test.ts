import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moreButton } from './support/screens.ts';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { createHorseLookups, restClient, sessionCookie, signInThroughUi } from './support/session.ts';

const STATUSES = ['Available', 'In Training', 'Reserved', 'Sold', 'Retired'];

/**
 * docs/design.md as Chromium draws it: each horse status has a colour of its own ([B8]) in
 * both themes, and on a touch screen every button and menu item is at least 44 px tall.
 */
describe('the ranch look', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    const api = restClient(server, await sessionCookie(server, ADMIN));
    const refs = await createHorseLookups(api, { breed: 'Quarter Horse', color: 'Bay', gender: 'Mare' });
    for (const status of STATUSES) {
      const { id } = await api<{ id: string }>('/api/statuses', { method: 'POST', body: JSON.stringify({ name: status }) });
      await api('/api/horses', { method: 'POST', body: JSON.stringify({ name: `${status} horse`, ...refs, statusId: id }) });
    }
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Each status badge's drawn background, as rgb on a canvas (the computed colour may be oklch). */
  const badgeColours = (page: Page) =>
    page.evaluate((names) => {
      const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
      return names.map((name) => {
        const badge = [...document.querySelectorAll('table .badge')].find((element) => element.textContent === name);
        if (!badge) return null;
        context.fillStyle = getComputedStyle(badge).backgroundColor;
        context.fillRect(0, 0, 1, 1);
        return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)].join(',');
      });
    }, STATUSES);

  it('[B8] gives each horse status a badge of its own colour, in the light theme and the dark', async () => {
    const page = await signInThroughUi(await browser.newContext({ viewport: { width: 1280, height: 800 } }), server, ADMIN);
    await page.goto(`${server.url}/horses`);
    await page.getByText('Retired horse').waitFor();
    await expect.poll(async () => (await badgeColours(page)).every((colour) => colour !== null)).toBe(true);
    const light = await badgeColours(page);
    expect(new Set(light).size).toBe(STATUSES.length);

    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'ranch-dark'));
    const dark = await badgeColours(page);
    expect(new Set(dark).size).toBe(STATUSES.length);
    expect(dark).not.toEqual(light);
    await page.context().close();
  });

  it("shows a disabled field's value (the profile before Edit) at AA contrast, in both themes", async () => {
    const page = await signInThroughUi(await browser.newContext({ viewport: { width: 1280, height: 800 } }), server, ADMIN);
    await page.goto(`${server.url}/profile`);
    const role = page.getByLabel('Role', { exact: true });
    await role.waitFor();
    const ratio = () =>
      role.evaluate((input) => {
        const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
        const style = getComputedStyle(input);
        const drawn = (colour: string) => {
          canvas.clearRect(0, 0, 1, 1);
          canvas.fillStyle = style.backgroundColor;
          canvas.fillRect(0, 0, 1, 1);
          canvas.fillStyle = colour;
          canvas.fillRect(0, 0, 1, 1);
          return [...canvas.getImageData(0, 0, 1, 1).data.slice(0, 3)];
        };
        const luminance = (rgb: number[]) =>
          rgb
            .map((v) => v / 255)
            .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
            .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i]!, 0);
        const [text, ground] = [luminance(drawn(style.color)), luminance(drawn(style.backgroundColor))];
        return (Math.max(text, ground) + 0.05) / (Math.min(text, ground) + 0.05);
      });
    expect(await role.isDisabled()).toBe(true);
    expect(await ratio()).toBeGreaterThanOrEqual(4.5);
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'ranch-dark'));
    await expect.poll(ratio).toBeGreaterThanOrEqual(4.5);
    await page.context().close();
  });

  it("fits the Dashboard's four key figures on a phone's first screen, two by two", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await signInThroughUi(phone, server, ADMIN);
    await page.getByRole('list', { name: 'Key figures' }).waitFor();
    const boxes = await page
      .getByRole('list', { name: 'Key figures' })
      .getByRole('listitem')
      .evaluateAll((cards) =>
        cards.map((card) => card.getBoundingClientRect()).map(({ top, bottom }) => ({ top: Math.round(top), bottom })),
      );
    expect(boxes).toHaveLength(4);
    expect(Math.max(...boxes.map(({ bottom }) => bottom))).toBeLessThanOrEqual(844);
    expect(new Set(boxes.map(({ top }) => top)).size).toBe(2);
    await phone.close();
  });

  it('makes every button, field and menu item on a phone at least 44 px tall', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await signInThroughUi(phone, server, ADMIN);
    await page.goto(`${server.url}/horses`);
    await page.getByText('Retired horse').waitFor();
    await moreButton(page).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Horses' }).waitFor();
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.btn, .tab, .input, .select, .menu li > a, .menu li > button')]
        .filter((element) => element.getClientRects().length > 0)
        .map((element) => ({
          name: element.getAttribute('aria-label') ?? element.textContent?.trim(),
          height: element.getBoundingClientRect().height,
        }))
        .filter(({ height }) => height < 44),
    );
    expect(small).toEqual([]);
    // It measured something: the row actions and the drawer's links are there.
    expect(await page.locator('.btn').count()).toBeGreaterThan(10);
    await phone.close();
  });
});
