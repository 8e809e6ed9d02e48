import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { launchChromium } from './support/browser.ts';
import { signInThroughUi } from './support/session.ts';

/**
 * Dark Mode and Compact View as the browser draws them (styles.css): the theme comes from
 * `data-theme` on <html> alone (daisyUI's theme-controller selectors are left out of the
 * build), and Compact View tightens daisyUI's fields beyond its smaller root size.
 */
describe('appearance settings in the browser', () => {
  let server: AppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    page = await signInThroughUi(await browser.newContext(), server, ADMIN);
    await page.goto(`${server.url}/settings`);
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const toggle = (name: string) => page.getByRole('switch', { name });
  /** The page's background as the sum of its red, green and blue (drawn on a canvas: the computed colour may be oklch). */
  const pageBrightness = () =>
    page.evaluate(() => {
      const context = document.createElement('canvas').getContext('2d')!;
      context.fillStyle = getComputedStyle(document.documentElement).backgroundColor;
      context.fillRect(0, 0, 1, 1);
      const [red, green, blue] = context.getImageData(0, 0, 1, 1).data;
      return red! + green! + blue!;
    });

  it('[V5] Dark Mode turns the page dark and back', async () => {
    const light = await pageBrightness();
    expect(light).toBeGreaterThan(600);
    await toggle('Dark Mode').click();
    await expect.poll(pageBrightness).toBeLessThan(200);
    await toggle('Dark Mode').click();
    await expect.poll(pageBrightness).toBe(light);
  });

  it('[V5] Compact View makes a switch smaller than the smaller text alone would', async () => {
    const height = async () => (await toggle('Compact View').boundingBox())!.height;
    const rootSize = () => page.evaluate(() => Number.parseFloat(getComputedStyle(document.documentElement).fontSize));
    const normal = { height: await height(), root: await rootSize() };
    await toggle('Compact View').click();
    await expect.poll(rootSize).toBeLessThan(normal.root);
    const compact = { height: await height(), root: await rootSize() };
    // Scaled by the root size alone, the switch would be normal.height × compact.root / normal.root;
    // daisyUI's --size-selector (styles.css) makes it smaller still.
    expect(compact.height).toBeLessThan(normal.height * (compact.root / normal.root) * 0.95);
    await toggle('Compact View').click();
    await expect.poll(height).toBe(normal.height);
  });
});
