import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowAction } from './support/screens.ts';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';
import { financedTotalCents, formatUsd, fromCents } from '../../shared/index.ts';

type ApiSale = { id: string; horseId: string; status: string; salePrice: string; balance: string; createdAt: string };
type ApiPayment = { saleId: string; amount: string; method: string };

/**
 * Sales & Payments end to end: a sale is created and paid off at a desk; on a phone with no
 * signal a sale and a payment are recorded and reach the server when the signal returns.
 */
describe('sales and payments', () => {
  let server: AppServer;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;
  let link: PhoneLink;
  const horses: Record<string, string> = {};

  beforeAll(async () => {
    server = await startAppServer();
    link = await startPhoneLink(server);
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
    const ids: Record<string, string> = {};
    for (const [kind, name] of [
      ['breeds', 'Quarter Horse'],
      ['colors', 'Bay'],
      ['genders', 'Mare'],
      ['statuses', 'For Sale'],
    ] as const) {
      await api(`/api/${kind}`, { method: 'POST', body: JSON.stringify({ name }) });
      const list = await api<{ id: string; name: string }[]>(`/api/${kind}`);
      ids[kind] = list.find((item) => item.name === name)!.id;
    }
    for (const [name, priceUsd] of [
      ['Comet', '12000'],
      ['Paddock Star', '8000'],
      ['Interest Mare', '12000'],
    ] as const) {
      const horse = await api<{ id: string }>('/api/horses', {
        method: 'POST',
        body: JSON.stringify({ name, breedId: ids.breeds, colorId: ids.colors, genderId: ids.genders, statusId: ids.statuses, priceUsd }),
      });
      horses[name] = horse.id;
    }
    await api('/api/buyers', { method: 'POST', body: JSON.stringify({ firstName: 'Bo', lastName: 'Buyer' }) });
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  /** A form control by its label; required labels end with a decorative ' *'. */
  const field = (scope: Locator, label: string) => scope.getByLabel(new RegExp(`^${label}( \\*)?$`));

  /** Types into a picker and taps the choice it lists, as a person selling a horse does. */
  async function pick(dialog: Locator, label: string, option: string) {
    await field(dialog, label).fill(option);
    await dialog.getByRole('option', { name: option, exact: true }).click();
    await expect.poll(() => field(dialog, label).inputValue()).toBe(option);
  }

  /** Opens Create New Sale once the synced horse and buyer are offered. */
  async function openSaleForm(page: Page, horse: string): Promise<Locator> {
    await page.getByRole('button', { name: 'Create Sale' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Sale' });
    for (const [label, choice] of [
      ['Horse', horse],
      ['Buyer', 'Bo Buyer'],
    ] as const) {
      await field(dialog, label).fill(choice);
      await expect.poll(() => dialog.getByRole('option', { name: choice, exact: true }).count(), { timeout: 30_000 }).toBe(1);
      await field(dialog, label).fill('');
    }
    return dialog;
  }

  async function recordPayment(page: Page, dialog: Locator, amount: string, method: string) {
    await field(dialog, 'Amount').fill(amount);
    await field(dialog, 'Payment Method').selectOption({ label: method });
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await page.getByText('Payment recorded successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });
  }

  it('[S7] [P4] at a desk: creates a sale and records payments until it shows Paid', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    const page = await signInThroughUi(context, server, ADMIN);
    await page.goto(`${server.url}/sales`);
    await page.getByRole('heading', { name: 'Sales & Payments' }).waitFor();

    const sale = await openSaleForm(page, 'Comet');
    // Escape closes the picker's list, not the dialog: what was typed is not lost.
    await field(sale, 'Horse').fill('Com');
    await sale.getByRole('option', { name: 'Comet', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => sale.getByRole('listbox', { name: 'horses' }).getByRole('option').count()).toBe(0);
    expect(await sale.isVisible()).toBe(true);
    await pick(sale, 'Horse', 'Comet');
    // Filled by the pick's render, after the click returns: retried, not read once.
    await expect.poll(() => field(sale, 'Sale Price').inputValue()).toBe('$12,000');
    await sale.getByRole('region', { name: 'Selected Horse Details' }).getByText('$12,000').waitFor();
    await pick(sale, 'Buyer', 'Bo Buyer');
    await field(sale, 'Down Payment').fill('2000');
    await field(sale, 'Payment Terms').selectOption({ label: '3 months' });
    await sale.getByRole('button', { name: 'Create Sale' }).click();
    await page.getByText('Sale created successfully').waitFor();

    const row = page.getByRole('row').filter({ hasText: 'Comet' });
    await row.getByText('Open', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Add Payment' }).click();
    let payment = page.getByRole('dialog', { name: 'Record Payment' });
    expect(await field(payment, 'Sale').inputValue()).toContain('Comet');
    await recordPayment(page, payment, '4000', 'Cash');
    await row.getByText('Open', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Record Payment' }).click();
    payment = page.getByRole('dialog', { name: 'Record Payment' });
    await pick(payment, 'Sale', 'Comet — Bo Buyer (balance $6,000)');
    await recordPayment(page, payment, '6000', 'ACH Transfer');
    await row.getByText('Paid', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Add Payment' }).count()).toBe(0);

    await page.getByRole('tab', { name: 'Payments' }).click();
    await page.getByRole('row').filter({ hasText: 'ACH Transfer' }).getByText('$6,000').waitFor();

    // With the list closed, Escape is the dialog's again: a form with a choice made asks first ([B15]).
    const another = await openSaleForm(page, 'Paddock Star');
    await pick(another, 'Horse', 'Paddock Star');
    // The form holds the choice: it pre-filled the horse's price ([S5]).
    await expect.poll(() => field(another, 'Sale Price').inputValue()).toBe('$8,000');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Discard changes?' }).getByRole('button', { name: 'Discard' }).click();
    await another.waitFor({ state: 'hidden' });

    await expect
      .poll(async () => (await api<ApiSale[]>('/api/sales')).find((s) => s.horseId === horses.Comet)?.status, { timeout: 30_000 })
      .toBe('Paid');
    await context.close();
  });

  it('[S7] [S9] on a phone: a sale at 10 % APR over 12 months stays Open after the principal, until the interest is paid', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    context.setDefaultTimeout(20_000);
    const page = await signInThroughUi(context, server, ADMIN);
    await page.goto(`${server.url}/sales`);
    await page.getByRole('heading', { name: 'Sales & Payments' }).waitFor();

    const sale = await openSaleForm(page, 'Interest Mare');
    await pick(sale, 'Horse', 'Interest Mare');
    await pick(sale, 'Buyer', 'Bo Buyer');
    await field(sale, 'Payment Terms').selectOption({ label: '12 months' });
    await sale.getByLabel('Interest APR (%)', { exact: true }).fill('10');
    await sale.getByRole('button', { name: 'Create Sale' }).click();
    await page.getByText('Sale created successfully').waitFor();

    const apiSale = async () => (await api<ApiSale[]>('/api/sales')).find((s) => s.horseId === horses['Interest Mare']);
    await expect.poll(async () => (await apiSale())?.status, { timeout: 30_000 }).toBe('Open');
    const created = (await apiSale())!;
    const owed = financedTotalCents({ ...created, termsMonths: 12, interestApr: 10, downPayment: '0.00', scheduleStartDate: null });
    const interest = owed - 1_200_000;
    expect(interest).toBeGreaterThan(60_000);

    // The whole price is paid: the buyer still owes the interest, so the sale stays Open.
    const card = page.locator('li[data-row]').filter({ hasText: 'Interest Mare' });
    await rowAction(card, 'Add Payment');
    await recordPayment(page, page.getByRole('dialog', { name: 'Record Payment' }), '12000', 'Credit/Debit Card');
    await card.getByText('Open', { exact: true }).waitFor();
    await expect.poll(async () => (await apiSale())?.balance, { timeout: 30_000 }).toBe(fromCents(interest));
    expect((await apiSale())?.status).toBe('Open');

    // The interest is offered as the balance and, once paid, the sale is Paid everywhere.
    await rowAction(card, 'Add Payment');
    const payment = page.getByRole('dialog', { name: 'Record Payment' });
    expect(await field(payment, 'Sale').inputValue()).toContain(`(balance ${formatUsd(interest / 100)})`);
    await recordPayment(page, payment, fromCents(interest), 'Cash');
    await card.getByText('Paid', { exact: true }).waitFor();
    // [B15] A Paid sale takes no payment: its row has no "⋯" left.
    expect(await card.getByRole('button', { name: /^Actions for/ }).count()).toBe(0);
    await expect.poll(async () => (await apiSale())?.status, { timeout: 30_000 }).toBe('Paid');
    expect((await apiSale())?.balance).toBe('0.00');
    await context.close();
  });

  it('[O1] on a phone with no signal: records a sale and a payment that reach the server later', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    context.setDefaultTimeout(20_000);
    const page = await signInThroughUi(context, link, ADMIN);
    await serviceWorkerInControl(page);
    await page.goto(`${link.url}/sales`);
    await page.getByRole('heading', { name: 'Sales & Payments' }).waitFor();
    // Everything the forms offer has synced before the signal goes.
    const ready = await openSaleForm(page, 'Paddock Star');
    await ready.getByRole('button', { name: 'Cancel' }).click();

    await link.setOffline(context, true);
    await page.reload();
    await page.getByRole('heading', { name: 'Sales & Payments' }).waitFor();

    const sale = await openSaleForm(page, 'Paddock Star');
    await pick(sale, 'Horse', 'Paddock Star');
    await pick(sale, 'Buyer', 'Bo Buyer');
    await field(sale, 'Payment Terms').selectOption({ label: '6 months' });
    await sale.getByRole('button', { name: 'Create Sale' }).click();
    await page.getByText('Sale created successfully').waitFor();

    // Phones show a compact row per sale.
    const card = page.locator('li[data-row]').filter({ hasText: 'Paddock Star' });
    await rowAction(card, 'Add Payment');
    await recordPayment(page, page.getByRole('dialog', { name: 'Record Payment' }), '1000', 'Check');

    await page.reload();
    await page.getByRole('listitem').filter({ hasText: 'Paddock Star' }).getByText('Open', { exact: true }).waitFor();
    expect((await api<ApiSale[]>('/api/sales')).some((s) => s.horseId === horses['Paddock Star'])).toBe(false);

    await link.setOffline(context, false);
    await expect
      .poll(async () => (await api<ApiSale[]>('/api/sales')).find((s) => s.horseId === horses['Paddock Star'])?.status, { timeout: 30_000 })
      .toBe('Open');
    await expect
      .poll(async () => (await api<ApiPayment[]>('/api/payments')).filter((p) => p.method === 'Check').map((p) => p.amount), {
        timeout: 30_000,
      })
      .toEqual(['1000.00']);
    await context.close();
  });
});
