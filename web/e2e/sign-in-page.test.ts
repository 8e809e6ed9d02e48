import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** What sticks out sideways: the page's scroll width against its visible width, and the card's edges. */
function widths(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const card = document.querySelector('main')!.getBoundingClientRect();
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, left: card.left, right: card.right };
  });
}

/** [A4] The sign-in page fits a phone and looks like the app's landing screen. */
describe('the sign-in page on a phone', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('[A4] has no horizontal scroll at 390×844, with or without an error, and shows the logo', async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(`${server.url}/api/login`);
    let seen = await widths(page);
    expect(seen.clientWidth).toBe(390);
    expect(seen.scrollWidth).toBeLessThanOrEqual(seen.clientWidth);
    expect(seen.left).toBeGreaterThanOrEqual(0);
    expect(seen.right).toBeLessThanOrEqual(390);
    // The landing screen's logo, allowed by the page's CSP and loaded.
    const logo = page.locator('main img');
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

    // A wrong password: the error and the kept e-mail still fit.
    await page.getByLabel('Email').fill('someone.with.a.rather.long.address@a-very-long-ranch-name.example');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').waitFor();
    seen = await widths(page);
    expect(seen.scrollWidth).toBeLessThanOrEqual(seen.clientWidth);
    expect(seen.right).toBeLessThanOrEqual(390);

    // And it still signs in.
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${server.url}/`);
    await context.close();
  });

  it("[A4] draws its ground and button in the landing screen's colours (the ranch theme)", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    /** A colour as rgb, drawn on a canvas: the app's computed colours may be oklch. */
    const drawn = (selector: string) =>
      page.evaluate((target) => {
        const canvas = document.createElement('canvas').getContext('2d')!;
        const colour = (element: Element) => {
          canvas.fillStyle = getComputedStyle(element).backgroundColor;
          canvas.fillRect(0, 0, 1, 1);
          return [...canvas.getImageData(0, 0, 1, 1).data.slice(0, 3)].join(',');
        };
        return {
          ground: colour(document.querySelector('main')!.closest('.hero') ?? document.body),
          button: colour(document.querySelector(target)!),
        };
      }, selector);
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Sign In to Continue' }).waitFor();
    const landing = await drawn('main button');
    await page.goto(`${server.url}/api/login`);
    expect(await drawn('form button')).toEqual(landing);
    await context.close();
  });

  it('[A6] the sign-out question fits too', async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(`${server.url}/api/logout`);
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    const seen = await widths(page);
    expect(seen.scrollWidth).toBeLessThanOrEqual(seen.clientWidth);
    expect(seen.right).toBeLessThanOrEqual(390);
    await context.close();
  });
});
