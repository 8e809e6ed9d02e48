import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { navigate, record, toast } from './support/screens.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { createHorseLookups, restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

/**
 * A change the app made in good faith that the server cannot keep: the office, offline,
 * deletes a supplier that a phone gives to a horse meanwhile. A deletion yields to a
 * reference (docs/sync-rules.md), so when the office comes back the server brings the supplier
 * back, and the person who deleted it is told so, in the screen's words (docs/web.md
 * "Changes not kept").
 */
describe('a change the server did not keep', () => {
  let server: AppServer;
  let link: PhoneLink;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;
  let cookie: string;
  let supplierId: string;
  let horseId: string;

  beforeAll(async () => {
    server = await startAppServer();
    link = await startPhoneLink(server);
    browser = await launchChromium();
    cookie = await sessionCookie(server, ADMIN);
    api = restClient(server, cookie);
    const post = async (path: string, body: object) => (await api<{ id: string }>(path, { method: 'POST', body: JSON.stringify(body) })).id;
    const lookups = await createHorseLookups(api, { breed: 'Shire', color: 'Black', gender: 'Mare' });
    supplierId = await post('/api/owners', { firstName: 'Gone', lastName: 'Away' });
    horseId = await post('/api/horses', { name: 'Dusty', ...lookups, priceUsd: '4200' });
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  it('[O7] tells the device that made it, by record and reason', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await signInThroughUi(context, link, ADMIN);
    await serviceWorkerInControl(page);
    await navigate(page, 'Suppliers', 'Suppliers');
    await record(page, 'Gone Away').waitFor();

    // Offline emulation leaves an open socket open: reload, as the other offline tests do.
    await link.setOffline(context, true);
    await page.reload();
    await page.getByRole('heading', { name: 'Suppliers' }).waitFor();
    await record(page, 'Gone Away').getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Are you sure you want to delete this supplier?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await toast(page, 'Supplier deleted successfully');

    // Meanwhile a phone with signal gives Dusty that supplier.
    const horse = (await api<Record<string, unknown>[]>('/api/horses')).find((h) => h.id === horseId)!;
    const { id: _id, ...fields } = horse;
    await api(`/api/horses/${horseId}`, { method: 'PUT', body: JSON.stringify({ ...fields, ownerId: supplierId }) });
    await link.setOffline(context, false);

    const region = page.getByRole('region', { name: /Notifications/ });
    await region.getByText('Change not kept', { exact: true }).waitFor({ timeout: 20_000 });
    const said = 'Gone Away was brought back — In use: 1 record refers to it';
    expect(await region.getByRole('alert').getByText(said, { exact: true }).isVisible()).toBe(true);
    const owners = await api<{ id: string }[]>('/api/owners');
    expect(owners.map((owner) => owner.id)).toEqual([supplierId]);

    await page.getByRole('button', { name: 'Notifications, unread' }).click();
    const listed = page.getByRole('region', { name: 'Changes not kept' }).getByRole('listitem');
    await listed.getByText(said, { exact: true }).waitFor();
    expect(await listed.count()).toBe(1);
    await record(page, 'Gone Away').waitFor();
    await context.close();
  });
});
