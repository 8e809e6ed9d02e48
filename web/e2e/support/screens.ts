import type { Locator, Page } from 'playwright-core';

/**
 * Goes to a screen through the sidebar, as a person would: on a phone the sidebar is a
 * drawer behind the bottom navigation's More.
 */
export async function navigate(page: Page, link: string, heading: string): Promise<void> {
  const menu = moreButton(page);
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

/**
 * On the Horses screen, once `listed` shows in the list: opens Add Horse and waits until its
 * Color list holds `color` (the form makes its choices a frame or two after it shows).
 */
export async function openAddHorse(page: Page, listed: string, color: string): Promise<Locator> {
  await page.getByText(listed, { exact: true }).first().waitFor();
  await page.getByRole('button', { name: 'Add Horse' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add New Horse' });
  await dialog.getByLabel('Color').locator('option', { hasText: color }).waitFor({ state: 'attached' });
  return dialog;
}

/** A phone's More, in the bottom navigation: it opens the menu with every screen. */
export function moreButton(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Quick navigation' }).getByRole('button', { name: 'More' });
}

/** The table row (desk) or compact row (phone) that shows `text`. */
export function record(page: Page, text: string): Locator {
  return page.locator('tr, li[data-row]').filter({ hasText: text });
}

/**
 * Does a row action as a person would: on a desk its button in the row; on a phone View
 * Details is a tap on the row and the others are in its "⋯" menu.
 */
export async function rowAction(row: Locator, action: string): Promise<void> {
  const page = row.page();
  await row.waitFor();
  if ((await row.evaluate((element) => element.tagName)) === 'TR') {
    await row.getByRole('button', { name: action }).click();
  } else if (action === 'View Details') {
    await row.getByRole('button', { name: /View Details$/ }).click();
  } else {
    await row.getByRole('button', { name: /^Actions for/ }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: action, exact: true }).click();
  }
}

/** Waits for a toast with this text and dismisses it, so the next one is not confused with it. */
export async function toast(page: Page, text: string): Promise<void> {
  const region = page.getByRole('region', { name: /Notifications/ });
  await region.getByText(text, { exact: true }).waitFor();
  await region.getByRole('button', { name: 'Dismiss' }).click();
}

/** Adds an item to one list of Administration. */
export async function addLookup(page: Page, tab: string, singular: string, name: string): Promise<void> {
  await page.getByRole('tab', { name: tab }).click();
  await page.getByRole('button', { name: `Add ${singular}` }).click();
  const dialog = page.getByRole('dialog', { name: `Add New ${singular}` });
  await dialog.getByPlaceholder(`Enter ${singular.toLowerCase()} name`).fill(name);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await toast(page, `${singular} created successfully`);
  await record(page, name).first().waitFor();
}

export type ContactFields = { firstName: string; lastName: string; phone?: string; email?: string };

/** Fills the supplier or buyer form (labels differ only in '(Optional)'). */
export async function fillContact(dialog: Locator, contact: ContactFields): Promise<void> {
  await dialog.getByLabel('First Name').fill(contact.firstName);
  await dialog.getByLabel('Last Name').fill(contact.lastName);
  if (contact.phone !== undefined) await dialog.getByLabel(/^Phone/).fill(contact.phone);
  if (contact.email !== undefined) await dialog.getByLabel(/^Email/).fill(contact.email);
}

export type HorseFields = { name: string; breed: string; color: string; gender: string; supplier?: string; price?: string };

export async function fillHorse(dialog: Locator, horse: HorseFields): Promise<void> {
  await dialog.getByLabel(/^Name/).fill(horse.name);
  await dialog.getByLabel('Breed').selectOption({ label: horse.breed });
  await dialog.getByLabel('Color').selectOption({ label: horse.color });
  await dialog.getByLabel('Gender').selectOption({ label: horse.gender });
  if (horse.supplier) await dialog.getByLabel('Supplier').selectOption({ label: horse.supplier });
  if (horse.price) await dialog.getByLabel('Price').fill(horse.price);
}
