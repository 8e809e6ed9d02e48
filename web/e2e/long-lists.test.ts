import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDevice, whenSynced, type Device } from '../../sync-server/test/support/sync-client.ts';
import { newId, writeEntity } from '../../shared/index.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { launchChromium } from './support/browser.ts';
import { createHorseLookups, restClient, sessionCookie, signInThroughUi } from './support/session.ts';

const HORSES = 400;

/**
 * Where the rows a long list renders sit against the viewport (ui/use-window-rows.ts renders
 * only those in view, and spacers stand for the rest at the rows' measured height).
 */
function rowsAgainstViewport(page: Page, selector: string) {
  return page.evaluate((rows) => {
    const items = [...document.querySelectorAll<HTMLElement>(rows)];
    const first = items[0]?.getBoundingClientRect();
    const last = items.at(-1)?.getBoundingClientRect();
    const gap = items.length > 1 ? items[1]!.getBoundingClientRect().top - first!.bottom : 0;
    return {
      top: first?.top ?? Number.NaN,
      bottom: last?.bottom ?? Number.NaN,
      /** A rendered row's height, with the gap to the next. */
      rowHeight: first && last ? (last.bottom - first.top + gap) / items.length : Number.NaN,
      /** The whole list's height, spacers included. */
      listHeight: items[0]?.parentElement?.getBoundingClientRect().height ?? Number.NaN,
    };
  }, selector);
}

/** The rendered rows cover the part of the viewport their list is in: no blank stretch where rows belong. */
function rowsCoverTheirPart(page: Page, selector: string) {
  return page.evaluate((rows) => {
    const items = [...document.querySelectorAll<HTMLElement>(rows)];
    const list = items[0]?.parentElement?.getBoundingClientRect();
    if (!list) return false;
    const shownFrom = Math.max(0, list.top);
    const shownTo = Math.min(innerHeight, list.bottom);
    return items[0]!.getBoundingClientRect().top <= shownFrom && items.at(-1)!.getBoundingClientRect().bottom >= shownTo;
  }, selector);
}

/** The spacers stand for the rows out of view at their real height: the list is as tall as all its rows (within one row). */
async function expectTrueHeight(page: Page, selector: string, count: number): Promise<void> {
  await expect
    .poll(async () => {
      const { rowHeight, listHeight } = await rowsAgainstViewport(page, selector);
      return Math.abs(listHeight - count * rowHeight) / rowHeight;
    })
    .toBeLessThan(1);
}

/**
 * [B1] A windowed list (more than 60 rows) measures how tall its rows really are, so the
 * page scrolls as far as the list is long and the scrollbar says where one is; wherever it
 * is scrolled, its rows fill the viewport.
 */
describe('a long list, scrolled', () => {
  let server: AppServer;
  let browser: Browser;
  let writer: Device | undefined;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    const cookie = await sessionCookie(server, ADMIN);
    const lookups = await createHorseLookups(restClient(server, cookie), { breed: 'Arabian', color: 'Bay', gender: 'Mare' });
    writer = connectDevice(server.url, cookie, { origin: server.url });
    await whenSynced(writer);
    const doc = writer.doc;
    doc.transact(() => {
      for (let i = 0; i < HORSES; i++) writeEntity(doc, 'horses', newId(), { name: `Horse ${String(i).padStart(3, '0')}`, ...lookups });
    });
  }, 120_000);

  afterAll(async () => {
    writer?.destroy();
    await browser?.close();
    await server?.stop();
  });

  async function scrolledList(viewport: { width: number; height: number }, phone: boolean, rows: string) {
    const context = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone });
    const page = await signInThroughUi(context, server, ADMIN);
    await page.goto(`${server.url}/horses`);
    await expect.poll(() => page.locator(rows).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    return { context, page };
  }

  it('on a desk: the table is as tall as its rows, and scrolled to the middle and to the end its rows fill the viewport', async () => {
    const rows = 'table[aria-label="Horses"] tbody tr[data-row]';
    const { context, page } = await scrolledList({ width: 1280, height: 800 }, false, rows);
    await expect
      .poll(() => page.locator('table[aria-label="Horses"]').getAttribute('aria-rowcount'), { timeout: 30_000 })
      .toBe(String(HORSES + 1));

    await expectTrueHeight(page, rows, HORSES);
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight / 2));
    await expect.poll(async () => (await rowsAgainstViewport(page, rows)).bottom).toBeGreaterThanOrEqual(800);
    await expect.poll(async () => (await rowsAgainstViewport(page, rows)).top).toBeLessThanOrEqual(0);

    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.locator(rows).last().getAttribute('aria-rowindex')).toBe(String(HORSES + 1));
    await expect.poll(async () => (await rowsAgainstViewport(page, rows)).bottom).toBeLessThanOrEqual(800);
    await expect.poll(async () => (await rowsAgainstViewport(page, rows)).top).toBeLessThanOrEqual(0);
    await expectTrueHeight(page, rows, HORSES);

    // A search that shortens the list while it is scrolled to its end (the page's scroll
    // shrinks with it): the rows the search found show where the list now is.
    await page.getByPlaceholder('Search horses...').fill('Horse 1');
    await expect.poll(() => page.locator('table[aria-label="Horses"]').getAttribute('aria-rowcount')).toBe('101');
    await expect.poll(() => rowsCoverTheirPart(page, rows)).toBe(true);
    await expectTrueHeight(page, rows, 100);
    await context.close();
  });

  it('on a phone: the list is as tall as its cards, and scrolled to the middle they fill the viewport', async () => {
    const rows = 'ul[aria-label="Horses"] > li';
    const { context, page } = await scrolledList({ width: 390, height: 844 }, true, rows);
    await expect.poll(() => page.locator(rows).first().getAttribute('aria-setsize'), { timeout: 30_000 }).toBe(String(HORSES));

    await expectTrueHeight(page, rows, HORSES);
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight / 2));
    await expect.poll(async () => (await rowsAgainstViewport(page, rows)).top).toBeLessThanOrEqual(0);
    await expect.poll(async () => (await rowsAgainstViewport(page, rows)).bottom).toBeGreaterThanOrEqual(844);
    await expectTrueHeight(page, rows, HORSES);
    await context.close();
  });
});
