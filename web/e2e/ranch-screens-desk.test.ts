import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { addLookup, fillContact, fillHorse, navigate, record, toast } from './support/screens.ts';
import { restClient, sessionCookie, signInThroughUi } from './support/session.ts';

type Named = { id: string; name: string; isActive?: boolean };
type Contact = { firstName: string; lastName: string; phone: string | null; email: string | null };

/**
 * At a desk (1280×800): lists in Administration, a supplier, a buyer and a horse with its
 * supplier are created, edited and deleted through the screens, and the server agrees.
 */
describe('ranch screens at a desk', () => {
  let server: AppServer;
  let browser: Browser;
  let page: Page;
  let api: ReturnType<typeof restClient>;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
    const desk = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await signInThroughUi(desk, server, ADMIN);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('[L3] [L6] Administration: creates items in each list, renames and deactivates', async () => {
    await navigate(page, 'Admin', 'Administration');
    await page.getByText('No breeds found').waitFor();
    await addLookup(page, 'Breeds', 'Breed', 'Arabien');
    await addLookup(page, 'Colors', 'Color', 'Bay');
    await addLookup(page, 'Colors', 'Color', 'Gray');
    await addLookup(page, 'Genders', 'Gender', 'Mare');
    await addLookup(page, 'Statuses', 'Status', 'For Sale');

    await page.getByRole('tab', { name: 'Colors' }).click();
    await record(page, 'Gray').getByRole('button', { name: 'Deactivate' }).click();
    await toast(page, 'Color deactivated successfully');
    await record(page, 'Gray').getByText('Inactive').waitFor();

    await page.getByRole('tab', { name: 'Breeds' }).click();
    await record(page, 'Arabien').getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Breed' });
    await edit.getByPlaceholder('Enter breed name').fill('Arabian');
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Breed updated successfully');

    await expect.poll(async () => (await api<Named[]>('/api/breeds')).map((b) => b.name), { timeout: 20_000 }).toEqual(['Arabian']);
    await expect
      .poll(async () => (await api<Named[]>('/api/colors')).map((c) => [c.name, c.isActive]).sort(), { timeout: 20_000 })
      .toEqual([
        ['Bay', true],
        ['Gray', false],
      ]);
  });

  it('[C2] [H7] [H8] Suppliers and Horses: a horse with its supplier, totals, edit and delete', async () => {
    await navigate(page, 'Suppliers', 'Suppliers');
    await page.getByText('No suppliers found').waitFor();
    await page.getByRole('button', { name: 'Add Supplier' }).click();
    const add = page.getByRole('dialog', { name: 'Add New Supplier' });
    await add.getByRole('button', { name: 'Create Supplier' }).click();
    await add.getByText('First name is required').waitFor();
    await fillContact(add, { firstName: 'Sam', lastName: 'Stone', phone: '555-0100' });
    await add.getByRole('button', { name: 'Create Supplier' }).click();
    await toast(page, 'Owner created successfully');
    expect(await record(page, 'Sam Stone').getByRole('link', { name: '555-0100' }).getAttribute('href')).toBe('tel:5550100');

    await navigate(page, 'Horses', 'Horse Inventory');
    await page.getByRole('button', { name: 'Add Horse' }).click();
    const horseDialog = page.getByRole('dialog', { name: 'Add New Horse' });
    // Once the colours are offered (they render after the form), the inactive one is not.
    await horseDialog.getByLabel('Color').locator('option', { hasText: 'Bay' }).waitFor({ state: 'attached' });
    expect(await horseDialog.getByLabel('Color').locator('option', { hasText: 'Gray' }).count()).toBe(0);
    await fillHorse(horseDialog, { name: 'Comet', breed: 'Arabian', color: 'Bay', gender: 'Mare', supplier: 'Sam Stone', price: '12500' });
    // [H6]: kept as typed, then shown as it will be stored once the field is left.
    expect(await horseDialog.getByLabel('Price').inputValue()).toBe('12500');
    await horseDialog.getByLabel('Price').blur();
    await expect.poll(() => horseDialog.getByLabel('Price').inputValue()).toBe('$12,500');
    await horseDialog.getByRole('button', { name: 'Create Horse' }).click();
    await toast(page, 'Horse created successfully');
    await record(page, 'Comet').getByRole('cell', { name: 'Sam Stone' }).waitFor();

    await record(page, 'Comet').getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Horse' });
    await edit.getByLabel('Price').fill('13000.5');
    await edit.getByRole('button', { name: 'Update Horse' }).click();
    await toast(page, 'Horse updated successfully');
    await record(page, 'Comet').getByRole('cell', { name: '$13,000.50' }).waitFor();

    await navigate(page, 'Suppliers', 'Suppliers');
    await record(page, 'Sam Stone').getByRole('cell', { name: '$13,000.50' }).waitFor();
    await record(page, 'Sam Stone').getByRole('button', { name: 'Delete' }).click();
    const refuse = page.getByRole('dialog', { name: 'Are you sure you want to delete this supplier?' });
    expect(await refuse.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    await refuse.getByRole('button', { name: 'Cancel' }).click();

    await expect
      .poll(async () => (await api<{ name: string; priceUsd: string }[]>('/api/horses')).map((h) => [h.name, h.priceUsd]), {
        timeout: 20_000,
      })
      .toEqual([['Comet', '13000.50']]);

    await navigate(page, 'Horses', 'Horse Inventory');
    await record(page, 'Comet').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Are you sure you want to delete this horse?' }).getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Horse deleted successfully');
    await page.getByText('No horses found').waitFor();

    await navigate(page, 'Suppliers', 'Suppliers');
    await record(page, 'Sam Stone').getByRole('button', { name: 'Edit' }).click();
    const editSupplier = page.getByRole('dialog', { name: 'Edit Supplier' });
    await editSupplier.getByLabel('Email').fill('sam@stone.test');
    await editSupplier.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Supplier updated successfully');
    await expect
      .poll(async () => (await api<Contact[]>('/api/owners')).map((o) => o.email), { timeout: 20_000 })
      .toEqual(['sam@stone.test']);

    await record(page, 'Sam Stone').getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Are you sure you want to delete this supplier?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await toast(page, 'Supplier deleted successfully');
    await page.getByText('No suppliers found').waitFor();
    await expect.poll(async () => (await api<Contact[]>('/api/owners')).length, { timeout: 20_000 }).toBe(0);
    await expect.poll(async () => (await api<unknown[]>('/api/horses')).length).toBe(0);
  });

  it('[C5] [C6] Buyers: create, edit and delete', async () => {
    await navigate(page, 'Buyers', 'Buyers');
    await page.getByText('No buyers found').waitFor();
    await page.getByRole('button', { name: 'Add Buyer' }).click();
    const add = page.getByRole('dialog', { name: 'Add New Buyer' });
    await fillContact(add, { firstName: 'Bo', lastName: 'Hart', email: 'bo@' });
    await add.getByRole('button', { name: 'Create Buyer' }).click();
    await add.getByText('Invalid email').waitFor();
    await add.getByLabel('Email (Optional)').fill('bo@hart.test');
    await add.getByRole('button', { name: 'Create Buyer' }).click();
    await toast(page, 'Buyer created successfully');

    await record(page, 'Bo Hart').getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Buyer' });
    await edit.getByLabel('Phone (Optional)').fill('555 0199');
    await edit.getByRole('button', { name: 'Update Buyer' }).click();
    await toast(page, 'Buyer updated successfully');
    await expect
      .poll(async () => (await api<Contact[]>('/api/buyers')).map((b) => [b.firstName, b.phone, b.email]), { timeout: 20_000 })
      .toEqual([['Bo', '555 0199', 'bo@hart.test']]);

    await record(page, 'Bo Hart').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Buyer deleted successfully');
    await page.getByText('No buyers found').waitFor();
    await expect.poll(async () => (await api<Contact[]>('/api/buyers')).length, { timeout: 20_000 }).toBe(0);
  });

  it('[H7] a supplier chosen among 40: the select offers them all once touched, by mouse or keyboard', async () => {
    for (let i = 10; i < 50; i++) {
      await api('/api/owners', { method: 'POST', body: JSON.stringify({ firstName: `Owner${i}`, lastName: 'Stone' }) });
    }
    await navigate(page, 'Suppliers', 'Suppliers');
    await record(page, 'Owner49 Stone').waitFor();
    await navigate(page, 'Horses', 'Horse Inventory');
    await page.getByRole('button', { name: 'Add Horse' }).click();
    const add = page.getByRole('dialog', { name: 'Add New Horse' });
    const supplier = add.getByLabel('Supplier');
    // The colours are offered two frames after the form; a list of 40 waits to be touched (HorseForm.tsx).
    await add.getByLabel('Color').locator('option', { hasText: 'Bay' }).waitFor({ state: 'attached' });
    expect(await supplier.locator('option').count()).toBe(1);
    // The keys open the list (daisyUI's select is Chromium's customizable one), step past Ranch, choose.
    await supplier.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => supplier.locator('option:checked').textContent()).toBe('Owner10 Stone');
    expect(await supplier.locator('option').count()).toBe(41);
    // A supplier was chosen: Cancel asks first ([B15]).
    await add.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: 'Discard changes?' }).getByRole('button', { name: 'Discard' }).click();
    await add.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Add Horse' }).click();
    await add.getByLabel('Color').locator('option', { hasText: 'Bay' }).waitFor({ state: 'attached' });
    await supplier.click();
    expect(await supplier.locator('option').count()).toBe(41);
    await page.keyboard.press('Escape');
    await fillHorse(add, { name: 'Meteor', breed: 'Arabian', color: 'Bay', gender: 'Mare', supplier: 'Owner42 Stone' });
    await add.getByRole('button', { name: 'Create Horse' }).click();
    await toast(page, 'Horse created successfully');
    await record(page, 'Meteor').getByRole('cell', { name: 'Owner42 Stone' }).waitFor();
  });
});
