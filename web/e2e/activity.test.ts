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
  let dustyId: string;

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
    dustyId = String(dusty.id);
    await pat('/api/horses', { method: 'POST', body: JSON.stringify({ name: 'Comet', ...lookups }) });
    await pat(`/api/horses/${dusty.id}`, { method: 'PUT', body: JSON.stringify({ ...dusty, priceUsd: '1800' }) });
    await pat('/api/buyers', { method: 'POST', body: JSON.stringify({ firstName: 'Jake', lastName: 'Turner' }) });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('[T7] lists and counts every change with who made it, filters, sorts and links them, offline too', async () => {
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
    const count = page.getByTestId('list-count');
    await expect.poll(() => count.textContent()).toBe('7 changes');
    // [B16] A phone: the search on a line, the two filters side by side, nothing wider than the screen.
    const [record, person] = await Promise.all([page.getByLabel('Record').boundingBox(), page.getByLabel('Person').boundingBox()]);
    expect(record?.y).toBe(person?.y);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.getByLabel('Person').selectOption({ label: 'Pat Rider' });
    await expect.poll(() => changes.count()).toBe(3);
    await expect.poll(() => count.textContent()).toBe('3 of 7 changes');
    for (const text of await changes.allTextContents()) expect(text).toMatch(/^Pat Rider /);

    await page.getByLabel('Record').selectOption({ label: 'Horse' });
    await expect.poll(() => changes.count()).toBe(2);
    await page.getByLabel('Search changes').fill('dus');
    await expect.poll(() => changes.allTextContents()).toEqual([expect.stringContaining('Pat Rider changed Price of horse Dusty')]);
    await page.getByLabel('Person').selectOption({ label: 'Everyone' });
    await expect.poll(() => changes.count()).toBe(2);
    await page.getByLabel('Sort by').selectOption({ label: 'Date (oldest first)' });
    await expect
      .poll(() => changes.allTextContents())
      .toEqual([expect.stringMatching(/^Admin added horse Dusty/), expect.stringContaining('Pat Rider changed Price of horse Dusty')]);
    await page.getByLabel('Search changes').fill('nobody here');
    await page.getByText('No changes match these filters').waitFor();
    await expect.poll(() => count.textContent()).toBe('0 of 7 changes');

    // No signal: the activity as last fetched, and the screen says so.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    await page.getByText(/^Offline: this is the history as last fetched/).waitFor();
    await expect.poll(() => changes.count()).toBe(7);
    // A record's name opens its details, by its own address, offline as well.
    await changes.first().getByRole('link', { name: 'buyer Jake Turner' }).waitFor();
    await changes.filter({ hasText: 'Pat Rider changed Price of' }).getByRole('link', { name: 'horse Dusty' }).click();
    await page.waitForURL(`${server.url}/horses/${dustyId}`);
    await page.getByRole('dialog', { name: 'Horse Details' }).getByText('$1,800').first().waitFor();
    await context.setOffline(false);
    await context.close();
  });
});
