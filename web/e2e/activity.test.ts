import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { createHorseLookups, restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

const PAT = { email: 'pat@ranch.test', password: 'stable password', firstName: 'Pat', lastName: 'Rider', role: 'Staff' };

/** [T7] [D8] 'View All' opens the ranch's activity, filterable by record and person, offline too. */
describe('the ranch activity', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    const admin = restClient(server, await sessionCookie(server, ADMIN));
    await admin('/api/users', { method: 'POST', body: JSON.stringify(PAT) });
    const pat = restClient(server, await sessionCookie(server, PAT));
    const lookups = await createHorseLookups(admin, { breed: 'Shire', color: 'Bay', gender: 'Mare' });
    const dusty = await admin<Record<string, unknown>>('/api/horses', {
      method: 'POST',
      body: JSON.stringify({ name: 'Dusty', ...lookups, priceUsd: '1500' }),
    });
    await pat('/api/horses', { method: 'POST', body: JSON.stringify({ name: 'Comet', ...lookups }) });
    await pat(`/api/horses/${dusty.id}`, { method: 'PUT', body: JSON.stringify({ ...dusty, priceUsd: '1800' }) });
    await pat('/api/buyers', { method: 'POST', body: JSON.stringify({ firstName: 'Jake', lastName: 'Turner' }) });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('[T7] lists every change with who made it, filters by record, name and person, and shows the last fetched offline', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await signInThroughUi(context, server, ADMIN);
    await serviceWorkerInControl(page);
    await page.getByRole('link', { name: 'View All' }).click();
    await page.waitForURL(`${server.url}/activity`);
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    const changes = page.getByRole('list', { name: 'Changes' }).locator(':scope > li');
    await expect.poll(() => changes.count()).toBe(7);
    const latest = await changes.first().textContent();
    expect(latest).toContain('Pat Rider added buyer Jake Turner');
    await page.getByText('Price changed from $1,500 to $1,800').waitFor();

    await page.getByLabel('Person').selectOption({ label: 'Pat Rider' });
    await expect.poll(() => changes.count()).toBe(3);
    for (const text of await changes.allTextContents()) expect(text).toMatch(/^Pat Rider /);

    await page.getByLabel('Record').selectOption({ label: 'Horse' });
    await expect.poll(() => changes.count()).toBe(2);
    await page.getByLabel('Name').fill('dus');
    await expect.poll(() => changes.allTextContents()).toEqual([expect.stringContaining('Pat Rider changed Price of horse Dusty')]);
    await page.getByLabel('Person').selectOption({ label: 'Everyone' });
    await expect.poll(() => changes.count()).toBe(2);
    await page.getByLabel('Name').fill('nobody here');
    await page.getByText('No changes match these filters').waitFor();

    // No signal: the activity as last fetched, and the screen says so.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    await page.getByText(/^Offline: this is the history as last fetched/).waitFor();
    await expect.poll(() => changes.count()).toBe(7);
    await context.setOffline(false);
    await context.close();
  });
});
