import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appInBrowser } from './support/app-in-browser.ts';
import { ADMIN } from './support/app-server.ts';
import { DESK } from './support/browser.ts';
import { seedRanch } from './support/ranch-seed.ts';
import { record } from './support/screens.ts';

/** How many Tab presses `tabTo` makes before it gives up: more than any screen's stops. */
const MAX_TABS = 80;

/** What has the focus, for a failure's message: its tag, role and name or text. */
const focusedText = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'nothing (the page itself)';
    const name = active.getAttribute('aria-label') ?? (active as HTMLInputElement).labels?.[0]?.textContent ?? active.textContent ?? '';
    return `<${active.tagName.toLowerCase()}${active.getAttribute('role') ? ` role=${active.getAttribute('role')}` : ''}> "${name.trim().slice(0, 60)}"`;
  });

const isFocused = (target: Locator) =>
  target.evaluateAll((elements) => (elements as Element[]).includes(document.activeElement as Element));

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has the focus, as a person moving
 * through the page would; fails naming where the focus was after MAX_TABS presses.
 */
async function tabTo(page: Page, target: Locator, { back = false } = {}): Promise<void> {
  await target.waitFor();
  for (let press = 0; press < MAX_TABS; press++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  if (await isFocused(target)) return;
  throw new Error(
    `${MAX_TABS} presses of ${back ? 'Shift+Tab' : 'Tab'} did not reach ${target}; the focus is on ${await focusedText(page)}`,
  );
}

/**
 * The focus is on `target` (waited for: a dialog takes it, or gives it back, a frame after it
 * shows or goes), and it shows: an outline a person can see (a style, a width and a colour
 * that is not transparent), or a box shadow.
 */
async function expectFocusShown(page: Page, target: Locator): Promise<void> {
  await expect.poll(() => isFocused(target), { message: `focus on ${target}` }).toBe(true);
  const indicator = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement!);
    const outline =
      style.outlineStyle !== 'none' &&
      Number.parseFloat(style.outlineWidth) > 0 &&
      !/^(transparent|rgba\(.*, 0\))$/.test(style.outlineColor);
    return outline || style.boxShadow !== 'none' ? 'shown' : `none (outline ${style.outline}, box-shadow ${style.boxShadow})`;
  });
  expect(indicator, `the focus indicator of ${await focusedText(page)}`).toBe('shown');
}

/** The focus is somewhere inside `dialog`, with its indicator shown. */
async function expectFocusInside(page: Page, dialog: Locator): Promise<void> {
  await dialog.waitFor();
  await expectFocusShown(page, dialog.locator('*'));
}

/**
 * [B14] Keyboard-only use (docs/design.md "Accessibility"): at a desk, with Tab, Shift+Tab,
 * Enter, Escape, arrows and typed text alone, a person signs in, adds a horse, edits it
 * from its details, sells it and records a payment; every dialog takes the focus as it opens
 * and gives it back to what opened it as it closes, and the focus can always be seen.
 */
describe('keyboard-only use', () => {
  const app = appInBrowser((server) => seedRanch(server, new Date().toISOString().slice(0, 10)));

  it('[B14] signs in, adds and edits a horse, sells it and records a payment with the keyboard alone', async () => {
    const context = await app.browser.newContext(DESK);
    const page = await context.newPage();
    const { keyboard } = page;
    await page.goto(app.server.url);

    // Sign in.
    await tabTo(page, page.getByRole('button', { name: 'Sign In to Continue' }));
    await expectFocusShown(page, page.getByRole('button', { name: 'Sign In to Continue' }));
    await keyboard.press('Enter');
    await tabTo(page, page.getByLabel('Email'));
    await expectFocusShown(page, page.getByLabel('Email'));
    await keyboard.type(ADMIN.email);
    await tabTo(page, page.getByLabel('Password'));
    await keyboard.type(ADMIN.password);
    await tabTo(page, page.getByRole('button', { name: 'Sign In', exact: true }));
    await expectFocusShown(page, page.getByRole('button', { name: 'Sign In', exact: true }));
    await keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // Horses, through the navigation.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await tabTo(page, nav.getByRole('link', { name: 'Horses' }));
    await expectFocusShown(page, nav.getByRole('link', { name: 'Horses' }));
    await keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Horse Inventory' }).waitFor();
    await record(page, 'Dusty').waitFor();

    // Add Horse: the dialog's first field takes the focus; the required fields, then Create.
    const addHorse = page.getByRole('button', { name: 'Add Horse' });
    await tabTo(page, addHorse, { back: true });
    await expectFocusShown(page, addHorse);
    await keyboard.press('Enter');
    const adding = page.getByRole('dialog', { name: 'Add New Horse' });
    await adding.waitFor();
    await expectFocusShown(page, adding.getByRole('textbox', { name: 'Name', exact: true }));
    await keyboard.type('Thunder');
    // A closed select chooses by the letters typed (a space would open its list).
    for (const [field, typed, choice] of [
      ['Breed', 'Quarter', 'Quarter Horse'],
      ['Color', 'Bay', 'Bay'],
      ['Gender', 'Mare', 'Mare'],
      // Not required, but only a horse with a status is offered for sale.
      ['Status', 'Avail', 'Available'],
    ] as const) {
      const select = adding.getByRole('combobox', { name: field, exact: true });
      await select.locator('option', { hasText: choice }).waitFor({ state: 'attached' });
      await tabTo(page, select);
      await expectFocusShown(page, select);
      await keyboard.type(typed);
      expect(await select.evaluate((element: HTMLSelectElement) => element.selectedOptions[0]?.text)).toBe(choice);
    }
    await tabTo(page, adding.getByRole('button', { name: 'Create Horse' }));
    await expectFocusShown(page, adding.getByRole('button', { name: 'Create Horse' }));
    await keyboard.press('Enter');
    await adding.waitFor({ state: 'hidden' });
    await expectFocusShown(page, addHorse);

    // Its details from the list, then Edit there: a price, saved.
    const viewThunder = record(page, 'Thunder').getByRole('button', { name: 'View Details' });
    await tabTo(page, viewThunder);
    await expectFocusShown(page, viewThunder);
    await keyboard.press('Enter');
    const details = page.getByRole('dialog', { name: 'Horse Details' });
    await details.getByText('Thunder', { exact: true }).first().waitFor();
    await expectFocusInside(page, details);
    const edit = details.getByRole('button', { name: 'Edit' });
    await tabTo(page, edit);
    await expectFocusShown(page, edit);
    await keyboard.press('Enter');
    const editing = page.getByRole('dialog', { name: 'Edit Horse' });
    await editing.waitFor();
    await expectFocusShown(page, editing.getByRole('textbox', { name: 'Name', exact: true }));
    await tabTo(page, editing.getByRole('textbox', { name: 'Price' }));
    await keyboard.type('7500');
    await tabTo(page, editing.getByRole('button', { name: 'Update Horse' }));
    await keyboard.press('Enter');
    await editing.waitFor({ state: 'hidden' });
    await expectFocusShown(page, edit);
    await details.getByText('$7,500', { exact: true }).first().waitFor();
    // Escape closes the details, and the focus is back on the row's View Details.
    await keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });
    await expectFocusShown(page, viewThunder);

    // Sales, through the navigation; Create Sale with the horse and a buyer typed and picked.
    await tabTo(page, nav.getByRole('link', { name: 'Sales' }));
    await keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sales & Payments' }).waitFor();
    await record(page, 'Comet').waitFor();
    const createSale = page.getByRole('button', { name: 'Create Sale' });
    await tabTo(page, createSale, { back: true });
    await expectFocusShown(page, createSale);
    await keyboard.press('Enter');
    const selling = page.getByRole('dialog', { name: 'Create New Sale' });
    await expectFocusInside(page, selling);
    for (const [field, typed] of [
      ['Horse', 'Thund'],
      ['Buyer', 'Hart'],
    ] as const) {
      const picker = selling.getByRole('combobox', { name: field, exact: true });
      await tabTo(page, picker);
      await expectFocusShown(page, picker);
      await keyboard.type(typed);
      await keyboard.press('ArrowDown');
      await keyboard.press('Enter');
    }
    expect(await selling.getByRole('combobox', { name: 'Horse', exact: true }).inputValue()).toBe('Thunder');
    expect(await selling.getByRole('combobox', { name: 'Buyer', exact: true }).inputValue()).toBe('Bo Hart');
    // The horse's price is the sale's.
    expect(await selling.getByRole('textbox', { name: 'Sale Price' }).inputValue()).toBe('$7,500');
    const terms = selling.getByRole('combobox', { name: 'Payment Terms' });
    await tabTo(page, terms);
    await keyboard.type('6');
    expect(await terms.evaluate((element: HTMLSelectElement) => element.selectedOptions[0]?.text)).toBe('6 months');
    await tabTo(page, selling.getByRole('button', { name: 'Create Sale' }));
    await keyboard.press('Enter');
    await selling.waitFor({ state: 'hidden' });
    await expectFocusShown(page, createSale);
    await record(page, 'Thunder').waitFor();

    // Record Payment on it.
    const recordPayment = page.getByRole('button', { name: 'Record Payment' });
    await tabTo(page, recordPayment, { back: true });
    await expectFocusShown(page, recordPayment);
    await keyboard.press('Enter');
    const paying = page.getByRole('dialog', { name: 'Record Payment' });
    await expectFocusInside(page, paying);
    await tabTo(page, paying.getByRole('combobox', { name: 'Sale', exact: true }));
    await keyboard.type('Thunder');
    await keyboard.press('ArrowDown');
    await keyboard.press('Enter');
    expect(await paying.getByRole('combobox', { name: 'Sale', exact: true }).inputValue()).toMatch(/^Thunder — Bo Hart/);
    await tabTo(page, paying.getByRole('textbox', { name: 'Amount' }));
    await keyboard.type('1000');
    await tabTo(page, paying.getByRole('combobox', { name: 'Payment Method' }));
    await keyboard.type('Cash');
    await tabTo(page, paying.getByRole('button', { name: 'Record Payment' }));
    await keyboard.press('Enter');
    await paying.waitFor({ state: 'hidden' });
    await expectFocusShown(page, recordPayment);
    // Kept: the server has it.
    await expect
      .poll(async () =>
        (await app.seed.api<{ amount: string; method: string }[]>('/api/payments')).filter((payment) => payment.method === 'Cash'),
      )
      .toEqual([expect.objectContaining({ amount: expect.stringMatching(/^1000(\.0+)?$/) })]);

    // Escape: an untouched form closes at once, the focus back on its opener.
    await keyboard.press('Enter');
    await expectFocusInside(page, paying);
    await keyboard.press('Escape');
    await paying.waitFor({ state: 'hidden' });
    await expectFocusShown(page, recordPayment);

    // A filled one asks first; Keep Editing (the focus's) keeps what was typed, and the focus.
    await keyboard.press('Enter');
    await expectFocusInside(page, paying);
    const memo = paying.getByRole('textbox', { name: 'Memo' });
    await tabTo(page, memo);
    await keyboard.type('Left at the gate');
    await keyboard.press('Escape');
    const question = page.getByRole('dialog', { name: 'Discard changes?' });
    await expectFocusShown(page, question.getByRole('button', { name: 'Keep Editing' }));
    await keyboard.press('Enter');
    await question.waitFor({ state: 'hidden' });
    await expectFocusShown(page, memo);
    expect(await memo.inputValue()).toBe('Left at the gate');
    // Asked again, Discard closes both, and the focus is back on the opener.
    await keyboard.press('Escape');
    await tabTo(page, question.getByRole('button', { name: 'Discard' }));
    await expectFocusShown(page, question.getByRole('button', { name: 'Discard' }));
    await keyboard.press('Enter');
    await paying.waitFor({ state: 'hidden' });
    await expectFocusShown(page, recordPayment);
    await context.close();
  });
});
