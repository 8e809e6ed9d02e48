import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { navigate, record, toast } from './support/screens.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

/**
 * A change the app made in good faith that the server cannot keep: a device offline gives a
 * horse a supplier that the office deletes meanwhile. When the device comes back the server
 * puts the horse's supplier back, and the person who made the change is told so, in the
 * screen's words (docs/web.md "Changes not kept").
 */
describe('a change the server did not keep', () => {
  let server: AppServer;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;
  let cookie: string;
  let supplierId: string;
  let horseId: string;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    cookie = await sessionCookie(server, ADMIN);
    api = restClient(server, cookie);
    const post = async (path: string, body: object) => (await api<{ id: string }>(path, { method: 'POST', body: JSON.stringify(body) })).id;
    const lookups = { breedId: await post('/api/breeds', { name: 'Shire' }), colorId: await post('/api/colors', { name: 'Black' }), genderId: await post('/api/genders', { name: 'Mare' }) };
    supplierId = await post('/api/owners', { firstName: 'Gone', lastName: 'Away' });
    horseId = await post('/api/horses', { name: 'Dusty', ...lookups, priceUsd: '4200' });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('tells the device that made it, by record, field, value and reason', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await signInThroughUi(context, server, ADMIN);
    await serviceWorkerInControl(page);
    await navigate(page, 'Horses', 'Horse Inventory');
    await record(page, 'Dusty').waitFor();

    // Offline emulation leaves an open socket open: reload, as the other offline tests do.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Horse Inventory' }).waitFor();
    await record(page, 'Dusty').getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Horse' });
    await dialog.getByLabel('Supplier').selectOption({ label: 'Gone Away' });
    await dialog.getByRole('button', { name: 'Update Horse' }).click();
    await toast(page, 'Horse updated successfully');

    // Meanwhile the office deletes the supplier: the server refuses that while a horse names it, so none does yet.
    const deleted = await fetch(`${server.url}/api/owners/${supplierId}`, { method: 'DELETE', headers: { cookie, origin: server.url } });
    expect(deleted.ok).toBe(true);
    await context.setOffline(false);

    const region = page.getByRole('region', { name: /Notifications/ });
    await region.getByText('Change not kept', { exact: true }).waitFor({ timeout: 20_000 });
    const said = 'Dusty: Supplier was put back to Ranch — The supplier it names no longer exists';
    expect(await region.getByRole('alert').getByText(said, { exact: true }).isVisible()).toBe(true);
    const horse = (await api<{ id: string; ownerId: string | null }[]>('/api/horses')).find((h) => h.id === horseId);
    expect(horse?.ownerId).toBeNull();

    await page.getByRole('button', { name: 'Notifications, unread' }).click();
    const listed = page.getByRole('region', { name: 'Changes not kept' }).getByRole('listitem');
    await listed.getByText(said, { exact: true }).waitFor();
    expect(await listed.count()).toBe(1);
    await record(page, 'Dusty').getByText('Ranch').waitFor();
    await context.close();
  });
});
