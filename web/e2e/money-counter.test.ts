import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowAction } from './support/screens.ts';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';
import { MONEY_MESSAGES } from '../../shared/index.ts';

type ApiSale = { id: string; horseId: string; status: string; paid: string; balance: string };
type ApiPayment = { id: string; saleId: string; amount: string };

/**
 * Money at the counter, on a phone (390×844): amounts are taken only as typed, never
 * rewritten into another amount.
 */
describe('money at the counter, on a phone', () => {
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
    for (const [kind, name] of [
      ['breeds', 'Quarter Horse'],
      ['colors', 'Bay'],
      ['genders', 'Mare'],
      ['statuses', 'For Sale'],
      ['buyers', 'Bo'],
    ] as const) {
      const body = kind === 'buyers' ? { firstName: name, lastName: 'Buyer' } : { name };
      ids[kind] = (await api<{ id: string }>(`/api/${kind}`, { method: 'POST', body: JSON.stringify(body) })).id;
    }
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  /** A horse for sale and its sale to Bo Buyer at `price`, nothing down, paid in 3 months, made over REST. */
  async function saleOf(name: string, price: string): Promise<ApiSale> {
    const horse = await api<{ id: string }>('/api/horses', {
      method: 'POST',
      body: JSON.stringify({
        name,
        breedId: ids.breeds,
        colorId: ids.colors,
        genderId: ids.genders,
        statusId: ids.statuses,
        priceUsd: price,
      }),
    });
    const sale = await api<{ id: string }>('/api/sales', {
      method: 'POST',
      body: JSON.stringify({ horseId: horse.id, buyerId: ids.buyers, salePrice: price, termsMonths: 3 }),
    });
    return (await api<ApiSale[]>('/api/sales')).find((found) => found.id === sale.id)!;
  }

  /** A phone on the Sales screen; through the link (`viaLink`), its signal can be cut. */
  async function phone(viaLink = false): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    context.setDefaultTimeout(20_000);
    const target = viaLink ? link : server;
    const page = await signInThroughUi(context, target, ADMIN);
    if (viaLink) await serviceWorkerInControl(page);
    await page.goto(`${target.url}/sales`);
    await page.getByRole('heading', { name: 'Sales & Payments' }).waitFor();
    return { context, page };
  }

  /** A form control by its label; required labels end with a decorative ' *'. */
  const field = (scope: Locator, label: string) => scope.getByLabel(new RegExp(`^${label}( \\*)?$`));

  /** Opens Record Payment from the sale's row ("⋯", Add Payment). */
  async function paymentDialog(page: Page, horse: string): Promise<Locator> {
    const row = page.locator('li[data-row]').filter({ hasText: horse });
    await row.waitFor({ timeout: 30_000 });
    await rowAction(row, 'Add Payment');
    return page.getByRole('dialog', { name: 'Record Payment' });
  }

  it('[S14] refuses 1e30, -50 and 12.345 in Amount with a message, and records nothing', async () => {
    const sale = await saleOf('Counter Comet', '9000');
    const { context, page } = await phone();
    const dialog = await paymentDialog(page, 'Counter Comet');
    await field(dialog, 'Payment Method').selectOption({ label: 'Cash' });
    for (const [typed, message] of [
      ['1e30', MONEY_MESSAGES.notAnAmount],
      ['-50', MONEY_MESSAGES.negative],
      ['12.345', MONEY_MESSAGES.decimals],
    ] as const) {
      await field(dialog, 'Amount').fill(typed);
      await dialog.getByRole('button', { name: 'Record Payment' }).click();
      await dialog.getByText(message).waitFor();
      // What was typed stays as typed: nothing is stripped into another amount.
      expect(await field(dialog, 'Amount').inputValue()).toBe(typed);
      expect(await dialog.isVisible()).toBe(true);
    }
    // A good amount is shown as it will be stored once the field is left, and recorded so.
    await field(dialog, 'Amount').fill('1234.5');
    await field(dialog, 'Amount').blur();
    await expect.poll(() => field(dialog, 'Amount').inputValue()).toBe('$1,234.50');
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await page.getByText('Payment recorded successfully').waitFor();
    await expect
      .poll(async () => (await api<ApiPayment[]>('/api/payments')).filter((payment) => payment.saleId === sale.id).map((p) => p.amount), {
        timeout: 30_000,
      })
      .toEqual(['1234.50']);
    await context.close();
  });

  it('[P8] refuses an overpayment with the balance in the message, and records nothing', async () => {
    const sale = await saleOf('Counter Thunder', '9224.44');
    const { context, page } = await phone();
    const dialog = await paymentDialog(page, 'Counter Thunder');
    await field(dialog, 'Payment Method').selectOption({ label: 'Check' });
    await field(dialog, 'Amount').fill('20000');
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await dialog.getByText('Amount is more than the balance of $9,224.44').waitFor();
    // The whole balance is taken, and the sale is Paid with no credit.
    await field(dialog, 'Amount').fill('9,224.44');
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await page.getByText('Payment recorded successfully').waitFor();
    await expect
      .poll(async () => (await api<(ApiSale & { credit: string })[]>('/api/sales')).find((found) => found.id === sale.id), {
        timeout: 30_000,
      })
      .toMatchObject({ status: 'Paid', paid: '9224.44', balance: '0.00', credit: '0.00' });
    expect((await api<ApiPayment[]>('/api/payments')).filter((payment) => payment.saleId === sale.id).map((p) => p.amount)).toEqual([
      '9224.44',
    ]);
    await context.close();
  });

  it('[P10] a payment voided offline stops counting on every device and over REST once synced', async () => {
    const sale = await saleOf('Void Comet', '3000');
    await api('/api/payments', {
      method: 'POST',
      body: JSON.stringify({ saleId: sale.id, amount: '1000', date: '2026-03-01', method: 'Check' }),
    });
    const other = await phone();
    const { context, page } = await phone(true);
    const paymentRow = (on: Page) => on.getByRole('listitem').filter({ hasText: 'Void Comet' });
    for (const on of [page, other.page]) {
      await on.getByRole('tab', { name: 'Payments' }).click();
      await paymentRow(on).getByText('$1,000').waitFor({ timeout: 30_000 });
    }

    await link.setOffline(context, true);
    await page.reload();
    await page.getByRole('tab', { name: 'Payments' }).click();
    await rowAction(paymentRow(page), 'Void Payment');
    const dialog = page.getByRole('dialog', { name: 'Void Payment' });
    await dialog.getByRole('button', { name: 'Void Payment' }).click();
    await dialog.getByText('Reason is required').waitFor();
    await field(dialog, 'Reason').fill('Check bounced');
    await dialog.getByRole('button', { name: 'Void Payment' }).click();
    await page.getByText('Payment voided').first().waitFor();
    await paymentRow(page).getByText('Check bounced').waitFor();
    // A void payment cannot be voided again: a tap still opens its receipt, and it has no "⋯" left.
    expect(
      await paymentRow(page)
        .getByRole('button', { name: /^Actions for/ })
        .count(),
    ).toBe(0);
    expect(
      await paymentRow(page)
        .getByRole('button', { name: /Download Receipt$/ })
        .count(),
    ).toBe(1);
    // Offline: nothing reached the server yet; the phone's own figures already leave it out.
    expect((await api<ApiSale[]>('/api/sales')).find((found) => found.id === sale.id)?.paid).toBe('1000.00');
    await page.getByRole('tab', { name: 'Sales' }).click();
    await page.getByRole('listitem').filter({ hasText: 'Void Comet' }).getByRole('button', { name: 'View Details' }).click();
    await page.getByRole('dialog', { name: 'Sale Details' }).getByTestId('balance').getByText('$3,000').waitFor();

    await link.setOffline(context, false);
    await expect
      .poll(async () => (await api<ApiSale[]>('/api/sales')).find((found) => found.id === sale.id), { timeout: 30_000 })
      .toMatchObject({ status: 'Open', paid: '0.00', balance: '3000.00' });
    expect((await api<(ApiPayment & { voided: boolean })[]>('/api/payments')).find((p) => p.saleId === sale.id)?.voided).toBe(true);
    // The other device shows it void too.
    await paymentRow(other.page).getByText('Check bounced').waitFor({ timeout: 30_000 });
    await context.close();
    await other.context.close();
  });

  it('[S17] [S18] a sale marks the horse Sold; cancelling it on a phone gives the horse its status back', async () => {
    const sale = await saleOf('Cancel Comet', '4000');
    const horseStatus = async () => {
      const horse = (await api<{ id: string; statusId: string }[]>('/api/horses')).find((found) => found.id === sale.horseId);
      return (await api<{ id: string; name: string }[]>('/api/statuses')).find((status) => status.id === horse?.statusId)?.name;
    };
    expect(await horseStatus()).toBe('Sold');
    const { context, page } = await phone();
    const card = page.getByRole('listitem').filter({ hasText: 'Cancel Comet' });
    await card.getByRole('button', { name: 'View Details' }).click({ timeout: 30_000 });
    const details = page.getByRole('dialog', { name: 'Sale Details' });
    await details.getByRole('button', { name: 'Cancel Sale' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Sale' });
    await field(dialog, 'Reason').fill('Failed the vet check');
    await dialog.getByRole('button', { name: 'Cancel Sale' }).click();
    await page.getByText('Sale cancelled').first().waitFor();
    await details.getByText('Failed the vet check').waitFor();
    await expect.poll(horseStatus, { timeout: 30_000 }).toBe('For Sale');
    expect((await api<ApiSale[]>('/api/sales')).find((found) => found.id === sale.id)?.status).toBe('Cancelled');
    await context.close();
  });
});
