import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appInBrowser } from './support/app-in-browser.ts';
import { ADMIN } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { SIZES } from './support/browser.ts';
import { seedRanch } from './support/ranch-seed.ts';
import { moreButton, openAddHorse } from './support/screens.ts';
import { signInOnLoginPage } from './support/session.ts';
import { showTheme, THEMES, type Theme } from './support/theme.ts';

type Screen = { name: string; path: string; ready: (page: Page) => Promise<void> };

const heading = (text: string) => async (page: Page) => {
  await page.getByRole('heading', { name: text, exact: true }).waitFor();
};
const dialog = (name: string, text: string) => async (page: Page) => {
  await page.getByRole('dialog', { name }).getByText(text, { exact: true }).first().waitFor();
};

/**
 * [B14] axe-core on every screen, with a few records, in both themes, on a phone and at a
 * desk: no serious or critical violation. A failure lists, per screen, the rule, its help
 * and the selector of each element that breaks it.
 */
describe('accessibility of every screen', () => {
  const app = appInBrowser((server) => seedRanch(server, new Date().toISOString().slice(0, 10)));

  const screens = (): Screen[] => [
    { name: 'Dashboard', path: '/', ready: heading('Dashboard') },
    {
      name: 'Horses',
      path: '/horses',
      ready: async (page) => {
        await page.getByText('Dusty', { exact: true }).first().waitFor();
      },
    },
    { name: "a horse's details", path: `/horses/${app.seed.horses.Dusty}`, ready: dialog('Horse Details', 'Dusty') },
    {
      name: 'Add Horse',
      path: '/horses',
      ready: async (page) => {
        await openAddHorse(page, 'Dusty', 'Bay');
      },
    },
    {
      name: 'Record Care',
      path: `/horses/${app.seed.horses.Dusty}`,
      ready: async (page) => {
        await dialog('Horse Details', 'Dusty')(page);
        await page.getByRole('dialog', { name: 'Horse Details' }).getByRole('button', { name: 'Record Care' }).click();
        await page.getByRole('dialog', { name: 'Record Care' }).getByText('Dusty').first().waitFor();
      },
    },
    {
      name: "a care entry's details",
      path: `/horses/${app.seed.horses.Dusty}/care/${app.seed.careEntryId}`,
      ready: dialog('Care Details', 'Farrier'),
    },
    {
      name: "a care entry's Edit Care",
      path: `/horses/${app.seed.horses.Dusty}/care/${app.seed.careEntryId}`,
      ready: async (page) => {
        await dialog('Care Details', 'Farrier')(page);
        await page.getByRole('dialog', { name: 'Care Details' }).getByRole('button', { name: 'Edit' }).click();
        await page.getByRole('dialog', { name: 'Edit Care' }).getByLabel('Notes').waitFor();
      },
    },
    {
      name: 'Suppliers',
      path: '/owners',
      ready: async (page) => {
        await page.getByText('Sam Stone').first().waitFor();
      },
    },
    {
      name: 'Buyers',
      path: '/buyers',
      ready: async (page) => {
        await page.getByText('Ada Lane').first().waitFor();
      },
    },
    {
      name: 'Sales',
      path: '/sales',
      ready: async (page) => {
        await page.getByText('Bo Hart').first().waitFor();
      },
    },
    { name: "a sale's details", path: `/sales/${app.seed.saleId}`, ready: dialog('Sale Details', 'Bo Hart') },
    {
      name: 'Payments',
      path: '/sales',
      ready: async (page) => {
        await page.getByRole('tab', { name: 'Payments' }).click();
        await page.getByText('First installment').first().waitFor();
      },
    },
    {
      name: 'Administration',
      path: '/admin',
      ready: async (page) => {
        await page.getByText('Quarter Horse').first().waitFor();
      },
    },
    {
      name: "a lookup item's Edit dialog",
      path: `/admin/breeds/${app.seed.breedId}`,
      ready: async (page) => {
        await page.getByRole('dialog', { name: 'Edit Breed' }).getByPlaceholder('Enter breed name').waitFor();
      },
    },
    {
      name: 'Users',
      path: '/users',
      ready: async (page) => {
        await page.getByText('stella@ranch.test').first().waitFor();
      },
    },
    { name: "a person's details", path: `/users/${app.seed.staffId}`, ready: dialog('User Details', 'stella@ranch.test') },
    { name: 'Profile', path: '/profile', ready: heading('Profile') },
    { name: 'Settings', path: '/settings', ready: heading('Settings') },
    { name: 'Activity', path: '/activity', ready: heading('Activity') },
    {
      name: 'the notifications',
      path: '/',
      ready: async (page) => {
        await heading('Dashboard')(page);
        await page.getByRole('button', { name: /^Notifications/ }).click();
        await page.getByRole('region', { name: 'Due' }).waitFor();
      },
    },
  ];

  for (const [size, options] of Object.entries(SIZES)) {
    it(`[B14] has no serious or critical violation in ${THEMES.join(' or ')} on a ${size}`, async () => {
      const context = await app.browser.newContext(options);
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      const found: string[] = [];
      // Each theme in turn on the screen as it is: the themes are the stylesheet's (data-theme).
      const check = async (name: string, themes: readonly Theme[] = THEMES) => {
        for (const theme of themes) {
          await showTheme(page, theme);
          for (const violation of await seriousViolations(page)) found.push(`${name} in ${theme}: ${violation}`);
        }
      };

      await page.goto(app.server.url);
      await page.getByRole('button', { name: 'Sign In to Continue' }).waitFor();
      await check('the landing screen');
      await page.getByRole('button', { name: 'Sign In to Continue' }).click();
      await page.getByLabel('Email').waitFor();
      // The sign-in page is the server's, in the light look only (login-page.ts).
      await check('sign-in', ['ranch']);
      await signInOnLoginPage(page, ADMIN);

      for (const screen of screens()) {
        await page.goto(`${app.server.url}${screen.path}`);
        await screen.ready(page);
        await check(screen.name);
      }
      if (size === 'phone') {
        await moreButton(page).click();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Horses' }).waitFor();
        await check('the menu');
        // [B15] A compact row's "⋯" sheet.
        await page.goto(`${app.server.url}/horses`);
        await page
          .locator('li[data-row]')
          .first()
          .getByRole('button', { name: /^Actions for/ })
          .click();
        await page.getByRole('menu').waitFor();
        await check("a row's actions");
      }
      await context.close();
      expect(found, `axe-core's serious and critical violations on a ${size}:\n${found.join('\n')}`).toEqual([]);
      // Some 70 axe runs of a second or two each: more than a file's default on a busy machine.
    }, 300_000);
  }
});
