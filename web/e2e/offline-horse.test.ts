import type { Browser } from 'playwright-core';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

/**
 * The walking skeleton end to end: a horse added on a device with no signal survives
 * reloads, reaches the server (and Postgres) when signal returns, and appears on a second
 * device without it reloading. The data layer runs in the data worker, as in every browser
 * with workers; the page's own data layer goes offline and back in conflicts.test.ts
 * (docs/contributing.md, "Browser tests").
 */
describe('a horse added offline reaches the server and the office', () => {
  let server: AppServer;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;
  let link: PhoneLink;

  beforeAll(async () => {
    server = await startAppServer();
    link = await startPhoneLink(server);
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
    for (const [kind, name] of [
      ['breeds', 'Quarter Horse'],
      ['colors', 'Bay'],
      ['genders', 'Mare'],
    ] as const) {
      await api(`/api/${kind}`, { method: 'POST', body: JSON.stringify({ name }) });
    }
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  it('[O1] [O2] works offline, survives reloads and syncs when back online', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await signInThroughUi(phone, link, ADMIN);
    expect(await page.evaluate(() => (window as { __ranch?: { host?: string } }).__ranch?.host ?? 'page')).toBe('shared');
    // The service worker must control the page before the signal goes.
    await serviceWorkerInControl(page);
    // On a phone the main screens are in the bottom navigation.
    await page.getByRole('navigation', { name: 'Quick navigation' }).getByRole('link', { name: 'Horses' }).click();
    await page.getByRole('heading', { name: 'Horse Inventory' }).waitFor();
    // The lookups arrive through sync; wait until the form can offer them.
    await page.getByRole('button', { name: 'Add Horse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Horse' });
    await expect.poll(() => dialog.getByLabel('Breed').locator('option', { hasText: 'Quarter Horse' }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The office is open on another machine, watching the list.
    const office = await browser.newContext();
    const officePage = await signInThroughUi(office, server, ADMIN);
    await officePage.goto(`${server.url}/horses`);
    await officePage.getByRole('heading', { name: 'Horse Inventory' }).waitFor();

    await link.setOffline(phone, true);
    await page.reload();
    await page.getByRole('heading', { name: 'Horse Inventory' }).waitFor();

    await page.getByRole('button', { name: 'Add Horse' }).click();
    await dialog.getByLabel('Name').fill('Paddock Ghost');
    await dialog.getByLabel('Breed').selectOption({ label: 'Quarter Horse' });
    await dialog.getByLabel('Color').selectOption({ label: 'Bay' });
    await dialog.getByLabel('Gender').selectOption({ label: 'Mare' });
    await dialog.getByLabel('Price').fill('12500');
    await dialog.getByRole('button', { name: /Create Horse|Save/ }).click();
    await page.getByText('Horse created successfully').waitFor();
    // A phone shows cards, not table cells.
    await page.locator('li[data-row]').filter({ hasText: 'Paddock Ghost' }).waitFor();

    await page.reload();
    await page.locator('li[data-row]').filter({ hasText: 'Paddock Ghost' }).waitFor();
    await expect.poll(async () => (await api<unknown[]>('/api/horses')).length).toBe(0);

    await link.setOffline(phone, false);
    await expect
      .poll(async () => (await api<{ name: string }[]>('/api/horses')).map((h) => h.name), { timeout: 30_000 })
      .toEqual(['Paddock Ghost']);
    const [horse] = await api<unknown[]>('/api/horses?search=paddock');
    expect(horse).toMatchObject({ name: 'Paddock Ghost', priceUsd: '12500.00' });

    // The office sees it without reloading.
    await officePage
      .getByRole('cell', { name: /Paddock Ghost/ })
      .first()
      .waitFor({ timeout: 30_000 });

    if ('url' in server.database.options) {
      const sql = postgres(server.database.options.url, { max: 1 });
      const rows = await sql`select name, price_usd::text as price from horses`;
      await sql.end();
      expect(rows).toEqual([{ name: 'Paddock Ghost', price: '12500.00' }]);
    }
  });
});
