import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appInBrowser } from './support/app-in-browser.ts';
import { ADMIN } from './support/app-server.ts';
import { SIZES } from './support/browser.ts';
import { seedRanch } from './support/ranch-seed.ts';
import { openAddHorse } from './support/screens.ts';
import { compareWithReference, UPDATE_COMMAND } from './support/screenshot-compare.ts';
import { signInOnLoginPage } from './support/session.ts';
import { showTheme, THEMES } from './support/theme.ts';

/** The seed's dates, and the page's clock frozen two weeks later. */
const SEED_DAY = '2026-03-02';
const PAGE_NOW = new Date('2026-03-16T15:00:00Z');
/** What a date the server stamped (the sale's) shows as instead, so the lists lay out the same every day. */
const FIXED_DATE = '3/2/2026';

type Screen = { name: string; path: string; ready: (page: Page) => Promise<void>; live?: (page: Page) => Locator[] };

/**
 * The main screens as Chromium draws them, at a phone's 390×844 and a desk's 1366×800, in
 * both themes, against the reference images in web/e2e/screenshots: a layout or colour that
 * changes by accident fails here. The data is fixed, the page's clock frozen, the times that
 * move masked. After a change of look made on purpose, regenerate the references (see
 * docs/contributing.md), look at them, and commit them.
 */
describe('screenshots of the main screens', () => {
  const app = appInBrowser((server) => seedRanch(server, SEED_DAY));

  const screens = (): Screen[] => [
    {
      name: 'dashboard',
      path: '/',
      ready: async (page) => {
        await page.getByText('In Training', { exact: true }).first().waitFor();
        // The figures once the seed's sale and payment are in them.
        await page.getByText('$7.5K pending').waitFor();
        await page.getByText('Sold', { exact: true }).first().waitFor();
        // The seed's last changes, and 'System initialized' after them.
        await expect.poll(() => page.getByRole('list', { name: 'Recent changes' }).getByRole('listitem').count()).toBeGreaterThan(1);
      },
      live: (page) => [page.getByRole('list', { name: 'Recent changes' }).locator('p.text-sm')],
    },
    {
      name: 'horses',
      path: '/horses',
      ready: async (page) => {
        await page.getByText('Star', { exact: true }).first().waitFor();
      },
    },
    {
      name: 'add-horse',
      path: '/horses',
      ready: async (page) => {
        await openAddHorse(page, 'Star', 'Bay');
      },
    },
    {
      // [B16] [K3] The horse's care as compact rows on a phone, a table at a desk.
      name: 'horse-details',
      path: `/horses/${app.seed.horses.Dusty}`,
      ready: async (page) => {
        const details = page.getByRole('dialog', { name: 'Horse Details' });
        await details.getByText('Dusty', { exact: true }).first().waitFor();
        await details.getByText('Farrier', { exact: true }).first().waitFor();
        await details.getByRole('list', { name: 'Changes' }).getByRole('listitem').first().waitFor();
      },
      live: (page) => [page.getByRole('list', { name: 'Changes' }).locator('li > span')],
    },
    {
      name: 'sales',
      path: '/sales',
      ready: async (page) => {
        await page.getByText('Bo Hart').first().waitFor();
      },
    },
    {
      name: 'sale-details',
      path: `/sales/${app.seed.saleId}`,
      ready: async (page) => {
        await page.getByRole('dialog', { name: 'Sale Details' }).getByText('Bo Hart', { exact: true }).first().waitFor();
        await page.getByRole('list', { name: 'Changes' }).getByRole('listitem').nth(1).waitFor();
      },
      // Who changed what, and when by the server's clock.
      live: (page) => [page.getByRole('list', { name: 'Changes' }).locator('li > span')],
    },
  ];

  /** Every text the server's clock wrote (the sale's date) reads FIXED_DATE instead. */
  async function freezeServerDates(page: Page) {
    await page.evaluate(
      ({ stamped, fixed }) => {
        const shown = new Date(stamped).toLocaleDateString();
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.nodeValue?.includes(shown)) node.nodeValue = node.nodeValue.replace(shown, fixed);
        }
      },
      { stamped: app.seed.saleCreatedAt, fixed: FIXED_DATE },
    );
  }

  async function shoot(page: Page, name: string, live: Locator[] = []): Promise<string | null> {
    // Where the focus lands is the keyboard test's business; its ring here would depend on
    // how far the dialog's start has gone.
    await page.evaluate(async () => {
      (document.activeElement as HTMLElement | null)?.blur();
      await document.fonts.ready;
    });
    const image = await page.screenshot({
      animations: 'disabled',
      caret: 'hide',
      // The header's sync status says when the server last answered.
      mask: [page.getByRole('group', { name: 'Sync status' }), ...live],
    });
    return compareWithReference(name, image);
  }

  for (const [size, options] of Object.entries(SIZES)) {
    it(`[B14] the main screens on a ${size} look as their references`, async () => {
      const context = await app.browser.newContext(options);
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      await page.clock.setFixedTime(PAGE_NOW);
      const failures: string[] = [];

      await page.goto(`${app.server.url}/api/login`);
      await page.getByLabel('Email').waitFor();
      // The sign-in page is the server's, in the light look only (login-page.ts).
      failures.push(...[await shoot(page, `${size}-sign-in`)].filter((failure) => failure !== null));
      await signInOnLoginPage(page, ADMIN);

      for (const screen of screens()) {
        await page.goto(`${app.server.url}${screen.path}`);
        await screen.ready(page);
        // The sync status at rest, all of it shown: its width sets where a long title is cut.
        const sync = page.getByRole('group', { name: 'Sync status' });
        await sync.getByText('All changes saved').waitFor();
        await sync.getByText(/^Synced /).waitFor();
        // What it says depends on the machine's time and pace, and it is masked: one fixed
        // width, so where the title is cut is the same in every run.
        await sync.evaluate((group) => {
          Object.assign((group as HTMLElement).style, { width: '88px', flex: 'none', overflow: 'hidden' });
        });
        await freezeServerDates(page);
        for (const theme of THEMES) {
          await showTheme(page, theme);
          const failure = await shoot(page, `${size}-${screen.name}-${theme}`, screen.live?.(page));
          if (failure) failures.push(failure);
        }
      }
      await context.close();
      expect(
        failures,
        `screens that differ from their references (after a change of look made on purpose: ${UPDATE_COMMAND}):\n${failures.join('\n')}`,
      ).toEqual([]);
      // Twelve screens with their waits: more than a file's default on a busy machine.
    }, 240_000);
  }
});
