import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { createHorseLookups, restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

/**
 * [B6] [B7] [B10] [B12] Finding things: a record's link opens its details, with no signal too
 * once the device has synced; a list searches, sorts and counts what it shows; a delete
 * undone comes back everywhere.
 */
describe('finding things', () => {
  let server: AppServer;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;
  let link: PhoneLink;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startAppServer();
    link = await startPhoneLink(server);
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
    const refs = await createHorseLookups(api, { breed: 'Quarter Horse', color: 'Bay', gender: 'Mare' });
    ids.breed = refs.breedId;
    const supplier = await api<{ id: string }>('/api/owners', {
      method: 'POST',
      body: JSON.stringify({ firstName: 'Hank', lastName: 'Miller', phone: '(555) 201-3344' }),
    });
    ids.supplier = supplier.id;
    for (const [name, priceUsd] of [
      ['Horse 10', '1000'],
      ['Horse 2', '20000'],
      ['Horse 1', '500'],
      ['Apollo', null],
    ] as const) {
      const horse = await api<{ id: string }>('/api/horses', {
        method: 'POST',
        body: JSON.stringify({ name, ...refs, priceUsd, ownerId: supplier.id }),
      });
      ids[name] = horse.id;
    }
    const [care] = await api<{ id: string }[]>('/api/careEntries', {
      method: 'POST',
      body: JSON.stringify({ horseIds: [ids['Horse 2']], kind: 'farrier', doneOn: '2026-03-02', notes: 'Shoes reset' }),
    });
    ids.care = care!.id;
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  it('[B10] a horse’s and a supplier’s links open their details with no signal, after one sync', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await signInThroughUi(phone, link, ADMIN);
    await serviceWorkerInControl(page);
    await page.goto(`${link.url}/horses`);
    // Synced once: the horses are on the device.
    await page.locator('li[data-row]').filter({ hasText: 'Horse 10' }).waitFor({ timeout: 30_000 });

    await link.setOffline(phone, true);
    await page.goto(`${link.url}/horses/${ids['Horse 2']}`);
    const details = page.getByRole('dialog', { name: 'Horse Details' });
    await details.getByText('Horse 2', { exact: true }).waitFor();
    await details.getByText('$20,000').waitFor();
    // Closing the details goes back to the list's address.
    await details.getByRole('button', { name: 'Close' }).first().click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/horses');
    // The list's View Details gives the record its address.
    await page.locator('li[data-row]').filter({ hasText: 'Horse 1' }).first().getByRole('button', { name: 'View Details' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/horses/${ids['Horse 1']}`);

    await page.goto(`${link.url}/owners/${ids.supplier}`);
    await page.getByRole('dialog', { name: 'Supplier Details' }).getByText('Hank Miller').first().waitFor();

    // A link to a record the device does not have says so.
    await page.goto(`${link.url}/horses/no-such-horse`);
    await page.getByRole('alert').filter({ hasText: 'This horse is not on this device' }).waitFor();
    await phone.close();
  });

  it('[B10] [K8] a lookup item’s and a care entry’s links open their dialogs with no signal; a care entry is corrected offline', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await link.setOffline(phone, false); // The link is the phones' own: the test before left it cut.
    const page = await signInThroughUi(phone, link, ADMIN);
    await serviceWorkerInControl(page);
    await page.goto(`${link.url}/horses`);
    await page.locator('li[data-row]').filter({ hasText: 'Horse 10' }).waitFor({ timeout: 30_000 });
    const path = () => new URL(page.url()).pathname;

    await link.setOffline(phone, true);
    await page.goto(`${link.url}/admin/breeds/${ids.breed}`);
    let breed = page.getByRole('dialog', { name: 'Edit Breed' });
    await expect.poll(() => breed.getByPlaceholder('Enter breed name').inputValue()).toBe('Quarter Horse');
    await breed.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(path).toBe('/admin');
    // [B16] A tap on the row gives the item its address again.
    await page.locator('li[data-row]').filter({ hasText: 'Quarter Horse' }).getByRole('button', { name: /Edit/ }).click();
    await expect.poll(path).toBe(`/admin/breeds/${ids.breed}`);
    breed = page.getByRole('dialog', { name: 'Edit Breed' });
    await breed.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${link.url}/horses/${ids['Horse 2']}/care/${ids.care}`);
    const entry = page.getByRole('dialog', { name: 'Care Details' });
    await entry.getByText('Shoes reset').waitFor();
    await entry.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('dialog', { name: 'Edit Care' });
    await form.getByLabel('Notes').fill('Shoes reset, front pads');
    await form.getByRole('button', { name: 'Save' }).click();
    await entry.getByText('Shoes reset, front pads').waitFor();
    await entry.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(path).toBe(`/horses/${ids['Horse 2']}`);
    // The horse's care row opens the entry's address.
    const details = page.getByRole('dialog', { name: 'Horse Details' });
    await details
      .locator('li[data-row]')
      .filter({ hasText: 'Farrier' })
      .getByRole('button', { name: /View Details/ })
      .click();
    await expect.poll(path).toBe(`/horses/${ids['Horse 2']}/care/${ids.care}`);
    await page.goto(`${link.url}/horses/${ids['Horse 2']}/care/no-such-entry`);
    await page.getByRole('alert').filter({ hasText: 'This care entry is not on this device' }).waitFor();

    // Back in signal, the correction reaches the server.
    await link.setOffline(phone, false);
    await expect
      .poll(async () => (await api<{ id: string; notes: string }[]>('/api/careEntries')).find((one) => one.id === ids.care)?.notes, {
        timeout: 30_000,
      })
      .toBe('Shoes reset, front pads');
    await phone.close();
  });

  it('[B6] [B7] the Horses list counts, searches and sorts in natural order', async () => {
    const desk = await browser.newContext({ viewport: { width: 1366, height: 800 } });
    const page = await signInThroughUi(desk, server, ADMIN);
    await page.goto(`${server.url}/horses`);
    const count = page.getByTestId('list-count');
    await expect.poll(() => count.textContent(), { timeout: 30_000 }).toBe('4 horses');
    const names = () => page.getByRole('table', { name: 'Horses' }).locator('tbody tr td:first-child .font-semibold').allTextContents();
    expect(await names()).toEqual(['Apollo', 'Horse 1', 'Horse 2', 'Horse 10']);

    await page.getByLabel('Search horses').fill('horse 1');
    await expect.poll(() => count.textContent()).toBe('2 of 4 horses');
    expect(await names()).toEqual(['Horse 1', 'Horse 10']);

    await page.getByLabel('Search horses').fill('');
    await page.getByRole('button', { name: /^Price/ }).click();
    await expect.poll(names).toEqual(['Horse 1', 'Horse 10', 'Horse 2', 'Apollo']);
    await page.getByRole('button', { name: /^Price/ }).click();
    await expect.poll(names).toEqual(['Horse 2', 'Horse 10', 'Horse 1', 'Apollo']);
    expect(await page.getByRole('columnheader', { name: /^Price/ }).getAttribute('aria-sort')).toBe('descending');
    await desk.close();
  });

  it('[B12] Undo after a delete brings the supplier back on the other device too', async () => {
    await api('/api/owners', { method: 'POST', body: JSON.stringify({ firstName: 'Sam', lastName: 'Stone', email: 'sam@ranch.test' }) });
    const [office, barn] = await Promise.all([browser.newContext(), browser.newContext()]);
    const [page, other] = await Promise.all([signInThroughUi(office, server, ADMIN), signInThroughUi(barn, server, ADMIN)]);
    await Promise.all([page.goto(`${server.url}/owners`), other.goto(`${server.url}/owners`)]);
    const row = (on: typeof page) => on.getByRole('row').filter({ hasText: 'Sam Stone' });
    await row(page).waitFor({ timeout: 30_000 });
    await row(other).waitFor({ timeout: 30_000 });

    await row(page).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Are you sure you want to delete this supplier?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect.poll(() => row(other).count(), { timeout: 30_000 }).toBe(0);

    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText('Supplier restored').waitFor();
    await row(other).waitFor({ timeout: 30_000 });
    expect(await row(other).getByRole('link', { name: 'sam@ranch.test' }).count()).toBe(1);
    await expect
      .poll(async () => (await api<{ firstName: string; email: string }[]>('/api/owners')).filter((owner) => owner.firstName === 'Sam'), {
        timeout: 30_000,
      })
      .toMatchObject([{ firstName: 'Sam', email: 'sam@ranch.test' }]);
    await Promise.all([office.close(), barn.close()]);
  });
});
