import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { addLookup, fillContact, fillHorse, navigate, record, rowAction, toast } from './support/screens.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

type Named = { name: string };
type Contact = { firstName: string; lastName: string };

/**
 * On a phone (390×844) with no signal: each screen (Administration, Suppliers, Buyers,
 * Horses) creates a record; all of it survives an offline reload and reaches the server
 * when the signal returns. Lists are cards and the sidebar is a drawer.
 */
describe('ranch screens on a phone, offline', () => {
  let server: AppServer;
  let link: PhoneLink;
  let browser: Browser;
  let phone: BrowserContext;
  let page: Page;
  let api: ReturnType<typeof restClient>;

  beforeAll(async () => {
    server = await startAppServer();
    link = await startPhoneLink(server);
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
    phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    page = await signInThroughUi(phone, link, ADMIN);
    await serviceWorkerInControl(page);
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  it('[G4] [B1] [B15] the drawer opens from More; lists are compact rows', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.isVisible()).toBe(false);
    await navigate(page, 'Buyers', 'Buyers');
    // The drawer closes after a link is followed (it fades out).
    await expect.poll(() => nav.isVisible()).toBe(false);
    await api('/api/buyers', { method: 'POST', body: JSON.stringify({ firstName: 'Online', lastName: 'Buyer' }) });
    await page.locator('li[data-row]').filter({ hasText: 'Online Buyer' }).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('table').count()).toBe(0);
  });

  it('[O1] creates on every screen with no signal, keeps it through a reload, and syncs it', async () => {
    await link.setOffline(phone, true);
    await page.reload();
    await page.getByRole('heading', { name: 'Buyers', exact: true }).waitFor();

    await navigate(page, 'Admin', 'Administration');
    await addLookup(page, 'Breeds', 'Breed', 'Mustang');
    await addLookup(page, 'Colors', 'Color', 'Dun');
    await addLookup(page, 'Genders', 'Gender', 'Gelding');

    await navigate(page, 'Suppliers', 'Suppliers');
    await page.getByRole('button', { name: 'Add Supplier' }).click();
    const supplier = page.getByRole('dialog', { name: 'Add New Supplier' });
    await fillContact(supplier, { firstName: 'Paddy', lastName: 'Field' });
    await supplier.getByRole('button', { name: 'Create Supplier' }).click();
    await toast(page, 'Owner created successfully');
    await record(page, 'Paddy Field').waitFor();

    await navigate(page, 'Buyers', 'Buyers');
    await page.getByRole('button', { name: 'Add Buyer' }).click();
    const buyer = page.getByRole('dialog', { name: 'Add New Buyer' });
    await fillContact(buyer, { firstName: 'Field', lastName: 'Buyer', phone: '555 0142' });
    await buyer.getByRole('button', { name: 'Create Buyer' }).click();
    await toast(page, 'Buyer created successfully');

    await navigate(page, 'Horses', 'Horse Inventory');
    await page.getByRole('button', { name: 'Add Horse' }).click();
    const horse = page.getByRole('dialog', { name: 'Add New Horse' });
    await fillHorse(horse, { name: 'Dusty', breed: 'Mustang', color: 'Dun', gender: 'Gelding', supplier: 'Paddy Field', price: '4200' });
    await horse.getByRole('button', { name: 'Create Horse' }).click();
    await toast(page, 'Horse created successfully');
    // A compact row: the price among the key facts; the supplier is in the details.
    await record(page, 'Dusty').getByText('$4,200').waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Horse Inventory' }).waitFor();
    await record(page, 'Dusty').getByText('$4,200').waitFor();
    await navigate(page, 'Suppliers', 'Suppliers');
    await record(page, 'Paddy Field').getByText('$4,200').waitFor();
    expect((await api<Named[]>('/api/horses')).length).toBe(0);

    await link.setOffline(phone, false);
    const names = async (path: string) => (await api<Named[]>(path)).map((item) => item.name);
    await expect.poll(() => names('/api/horses'), { timeout: 30_000 }).toEqual(['Dusty']);
    expect(await names('/api/breeds')).toEqual(['Mustang']);
    expect(await names('/api/colors')).toEqual(['Dun']);
    expect(await names('/api/genders')).toEqual(['Gelding']);
    expect((await api<Contact[]>('/api/owners')).map((o) => `${o.firstName} ${o.lastName}`)).toEqual(['Paddy Field']);
    expect((await api<Contact[]>('/api/buyers')).map((b) => `${b.firstName} ${b.lastName}`).sort()).toEqual([
      'Field Buyer',
      'Online Buyer',
    ]);
    await page.getByText('All changes saved').waitFor({ timeout: 30_000 });
  });

  it('[O1] edits and deletes from the cards', async () => {
    await navigate(page, 'Buyers', 'Buyers');
    await rowAction(record(page, 'Field Buyer'), 'Edit');
    const edit = page.getByRole('dialog', { name: 'Edit Buyer' });
    await edit.getByLabel('Last Name').fill('Hand');
    await edit.getByRole('button', { name: 'Update Buyer' }).click();
    await toast(page, 'Buyer updated successfully');
    await rowAction(record(page, 'Field Hand'), 'Delete');
    await toast(page, 'Buyer deleted successfully');

    await navigate(page, 'Horses', 'Horse Inventory');
    await rowAction(record(page, 'Dusty'), 'Delete');
    await page.getByRole('dialog', { name: 'Are you sure you want to delete this horse?' }).getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Horse deleted successfully');
    await page.getByText('No horses found').waitFor();

    await expect.poll(async () => (await api<Named[]>('/api/horses')).length, { timeout: 30_000 }).toBe(0);
    await expect
      .poll(async () => (await api<Contact[]>('/api/buyers')).map((b) => `${b.firstName} ${b.lastName}`), { timeout: 30_000 })
      .toEqual(['Online Buyer']);
  });
});
