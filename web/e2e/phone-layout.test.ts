import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appInBrowser } from './support/app-in-browser.ts';
import { ADMIN } from './support/app-server.ts';
import { DESK, PHONE } from './support/browser.ts';
import { createHorseLookups, restClient, sessionCookie, signInThroughUi } from './support/session.ts';
import { THEMES } from './support/theme.ts';

const HORSES = 9;

/**
 * [B15] [G8] A phone held in one hand at 390×844: compact rows (five horses and more on the
 * first screen), the floating Add button and the bottom navigation in the thumb's reach, a
 * header of one line; in both themes. A desk keeps its table.
 */
describe('the phone layout', () => {
  const app = appInBrowser(async (server) => {
    const api = restClient(server, await sessionCookie(server, ADMIN));
    const refs = await createHorseLookups(api, { breed: 'Quarter Horse', color: 'Bay', gender: 'Mare' });
    const { id: statusId } = await api<{ id: string }>('/api/statuses', { method: 'POST', body: JSON.stringify({ name: 'Available' }) });
    for (let i = 1; i <= HORSES; i++) {
      await api('/api/horses', {
        method: 'POST',
        body: JSON.stringify({ name: `Paddock Horse ${i}`, ...refs, statusId, ageYears: i, priceUsd: `${i}000` }),
      });
    }
  });

  /** What a person sees at once: the rows wholly between the header and the bottom navigation, and the bars' boxes. */
  const firstScreen = (page: Page) =>
    page.evaluate(() => {
      const box = (element: Element | null) => element?.getBoundingClientRect();
      const header = box(document.querySelector('header'))!;
      const dock = box(document.querySelector('nav[aria-label="Quick navigation"]'))!;
      const rows = [...document.querySelectorAll('ul[aria-label="Horses"] > li')].map((row) => row.getBoundingClientRect());
      const whole = rows.filter((row) => row.top >= header.bottom && row.bottom <= dock.top);
      const headerItems = [...document.querySelectorAll('header > *')]
        .map((element) => element.getBoundingClientRect())
        .filter((item) => item.width > 0)
        .map((item) => item.top + item.height / 2);
      return {
        wholeRows: whole.length,
        rowHeight: Math.max(...rows.map((row) => row.height)),
        headerHeight: header.height,
        headerMiddles: headerItems,
        dockTop: dock.top,
        viewport: window.innerHeight,
      };
    });

  it('shows five horses and more on the first screen, as compact rows, in both themes', async () => {
    const page = await signInThroughUi(await app.browser.newContext(PHONE), app.server, ADMIN);
    await page.goto(`${app.server.url}/horses`);
    await page.locator('li[data-row]').filter({ hasText: 'Paddock Horse 1' }).first().waitFor({ timeout: 30_000 });
    for (const theme of THEMES) {
      await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name), theme);
      const seen = await firstScreen(page);
      expect(seen.wholeRows, theme).toBeGreaterThanOrEqual(5);
      // Two lines, not a card of labelled fields.
      expect(seen.rowHeight, theme).toBeLessThanOrEqual(80);
      // The header is one line: as tall as one bar, every item on the same middle.
      expect(seen.headerHeight, theme).toBeLessThanOrEqual(64);
      expect(Math.max(...seen.headerMiddles) - Math.min(...seen.headerMiddles), theme).toBeLessThan(4);
      expect(seen.dockTop, theme).toBeLessThan(seen.viewport);
    }
    // The title once: the header names the screen; the heading is there for screen readers, not drawn again.
    expect(await page.locator('header').getByText('Horse Inventory').isVisible()).toBe(true);
    const heading = await page.getByRole('heading', { name: 'Horse Inventory', level: 1 }).boundingBox();
    expect(heading === null || heading.height <= 1).toBe(true);
    // A row shows its key facts and status, with no column labels.
    const row = page.locator('li[data-row]').filter({ hasText: 'Paddock Horse 2' });
    expect(await row.textContent()).toMatch(/Paddock Horse 2\s*Available\s*Quarter Horse · 2 years · Mare · \$2,000/);
    await page.context().close();
  });

  it('opens details with a tap on the row, and Edit and Delete from its "⋯", Delete in quiet red', async () => {
    const page = await signInThroughUi(await app.browser.newContext(PHONE), app.server, ADMIN);
    await page.goto(`${app.server.url}/horses`);
    const row = page.locator('li[data-row]').filter({ hasText: 'Paddock Horse 3' });
    await row.getByRole('button', { name: /Paddock Horse 3.*View Details$/ }).tap({ timeout: 30_000 });
    await page.waitForURL(/\/horses\/[^/]+$/);
    const details = page.getByRole('dialog', { name: 'Horse Details' });
    await details.getByRole('button', { name: 'Edit' }).waitFor();
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    const more = row.getByRole('button', { name: 'Actions for Paddock Horse 3' });
    await more.tap();
    const menu = page.getByRole('menu', { name: 'Paddock Horse 3' });
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Edit', 'Delete']);
    const remove = menu.getByRole('menuitem', { name: 'Delete' });
    expect(await remove.evaluate((item) => getComputedStyle(item).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
    // Each item is a thumb's size, above the bottom navigation.
    for (const item of await menu.getByRole('menuitem').all()) expect((await item.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await more.tap();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Edit' }).tap();
    await page.getByRole('dialog', { name: 'Edit Horse' }).waitFor();
    await page.context().close();
  });

  it('adds from a floating button above the bottom navigation, and moves between screens with it', async () => {
    const page = await signInThroughUi(await app.browser.newContext(PHONE), app.server, ADMIN);
    await page.goto(`${app.server.url}/horses`);
    const add = page.getByRole('button', { name: 'Add Horse', exact: true });
    await add.waitFor();
    const nav = page.getByRole('navigation', { name: 'Quick navigation' });
    const fab = (await add.boundingBox())!;
    const dock = (await nav.boundingBox())!;
    expect(fab.width).toBeGreaterThanOrEqual(44);
    expect(fab.y + fab.height).toBeLessThanOrEqual(dock.y);
    expect(fab.x + fab.width).toBeGreaterThan(300); // in the right thumb's reach
    await add.tap();
    await page.getByRole('dialog', { name: 'Add New Horse' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Add New Horse' }).waitFor({ state: 'detached' });

    const items = nav.locator('a, button');
    expect(await items.allInnerTexts()).toEqual(['Dashboard', 'Horses', 'Buyers', 'Sales', 'More']);
    for (const item of await items.all()) expect((await item.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect(await nav.locator('[aria-current="page"]').allInnerTexts()).toEqual(['Horses']);
    await nav.getByRole('link', { name: 'Sales' }).tap();
    await page.waitForURL(/\/sales$/);
    await expect.poll(() => nav.locator('[aria-current="page"]').allInnerTexts()).toEqual(['Sales']);
    await page.getByRole('button', { name: 'Create Sale', exact: true }).waitFor();
    // More opens the menu with every screen.
    await nav.getByRole('button', { name: 'More' }).tap();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Suppliers' }).tap();
    await page.waitForURL(/\/owners$/);
    await page.getByRole('button', { name: 'Add Supplier', exact: true }).waitFor();
    await page.context().close();
  });

  it('keeps the table with sortable headers on a desk, with no bottom navigation or floating button', async () => {
    const page = await signInThroughUi(await app.browser.newContext(DESK), app.server, ADMIN);
    await page.goto(`${app.server.url}/horses`);
    const table = page.getByRole('table', { name: 'Horses' });
    await table.getByRole('row').filter({ hasText: 'Paddock Horse 1' }).first().waitFor({ timeout: 30_000 });
    await table
      .getByRole('columnheader', { name: /^Price/ })
      .getByRole('button')
      .click();
    expect(await table.getByRole('columnheader', { name: /^Price/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(await page.getByRole('navigation', { name: 'Quick navigation' }).isVisible()).toBe(false);
    expect(await page.getByTestId('fab').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Horse Inventory', level: 1 }).isVisible()).toBe(true);
    expect(await page.locator('header').getByText('Horse Inventory').isVisible()).toBe(false);
    await page.context().close();
  });
});
