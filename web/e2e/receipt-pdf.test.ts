import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptNumber } from '../../shared/index.ts';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { pdfText } from './support/pdf-text.ts';
import { startPhoneLink } from './support/phone-link.ts';
import { createHorseLookups, restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

/** A real 1×1 PNG: the ranch's logo. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * [P7] [P9] [L9] The receipt a buyer keeps, headed by the ranch's name and address: printed to PDF (what "Save as PDF" makes) on a phone,
 * its text holds every field — the amount, the method and the balance left — not just the
 * header the dialog's box used to leave.
 */
describe('payment receipt as PDF', () => {
  let server: AppServer;
  let browser: Browser;
  let paymentId: string;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    const cookie = await sessionCookie(server, ADMIN);
    const api = restClient(server, cookie);
    // [L9] The ranch's details, which head the receipt, with a logo uploaded as photos are.
    const upload = await api<{ uploadURL: string; objectPath: string }>('/api/objects/upload', { method: 'POST' });
    const stored = await fetch(`${server.url}${upload.uploadURL}`, {
      method: 'PUT',
      headers: { cookie, origin: server.url, 'content-type': 'image/png' },
      body: PNG,
    });
    expect(stored.status).toBe(200);
    await api('/api/ranch', {
      method: 'PUT',
      body: JSON.stringify({
        name: 'Willow Creek Ranch',
        address: '1200 County Road 7\nLaramie, WY 82070',
        phone: '(307) 555-0142',
        email: 'office@willowcreek.test',
        logoUrl: upload.objectPath,
      }),
    });
    const refs = await createHorseLookups(api, { breed: 'Quarter Horse', color: 'Bay', gender: 'Mare' });
    const statusId = (await api<{ id: string }>('/api/statuses', { method: 'POST', body: JSON.stringify({ name: 'For Sale' }) })).id;
    const horse = await api<{ id: string }>('/api/horses', {
      method: 'POST',
      body: JSON.stringify({ name: 'Thunder', ...refs, statusId, priceUsd: '12000' }),
    });
    const buyer = await api<{ id: string }>('/api/buyers', {
      method: 'POST',
      body: JSON.stringify({ firstName: 'Jake', lastName: 'Turner' }),
    });
    const sale = await api<{ id: string }>('/api/sales', {
      method: 'POST',
      body: JSON.stringify({ horseId: horse.id, buyerId: buyer.id, salePrice: '12000', downPayment: '3000', termsMonths: 6 }),
    });
    await api('/api/payments', {
      method: 'POST',
      body: JSON.stringify({ saleId: sale.id, amount: '1000', date: '2026-02-01', method: 'Cash' }),
    });
    paymentId = (
      await api<{ id: string }>('/api/payments', {
        method: 'POST',
        body: JSON.stringify({ saleId: sale.id, amount: '2500.50', date: '2026-03-01', method: 'Check', memo: 'Second installment' }),
      })
    ).id;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("[P7] [P9] [L9] prints the ranch's name and address, every field, the receipt number and the remaining balance", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const page = await signInThroughUi(context, server, ADMIN);
      await page.goto(`${server.url}/sales`);
      await page.getByRole('tab', { name: 'Payments' }).click();
      // On a phone each payment is a card of the list.
      const row = page.getByRole('listitem').filter({ hasText: 'Second installment' });
      await row.getByRole('button', { name: 'Download Receipt' }).click();
      const dialog = page.getByRole('dialog', { name: 'Payment Receipt' });
      await dialog.getByText('Remaining balance').waitFor();
      // The details the app read from the server after signing in.
      await dialog.getByText('Willow Creek Ranch').waitFor();
      const logo = dialog.getByRole('img', { name: 'Willow Creek Ranch logo' });
      await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
      // What the screen shows: $9,000 financed less $1,000 and $2,500.50.
      expect(await dialog.getByTestId('remaining-balance').textContent()).toBe('$5,499.50');

      const text = pdfText(await page.pdf({ format: 'Letter' }));
      const lines = text.split('\n');
      const head = lines.slice(0, lines.indexOf('Payment Receipt'));
      expect(head).toEqual(['Willow Creek Ranch', '1200 County Road 7', 'Laramie, WY 82070', '(307) 555-0142', 'office@willowcreek.test']);
      expect(lines).toContain(`Receipt no. ${receiptNumber(paymentId)}`);
      expect(text).toMatch(/Received from\s*Jake Turner/);
      expect(text).toMatch(/For\s*Sale of Thunder/);
      expect(text).toMatch(/Amount\s*\$2,500\.50/);
      expect(text).toMatch(/Method\s*Check/);
      expect(text).toMatch(/Memo\s*Second installment/);
      expect(text).toMatch(/Remaining balance\s*\$5,499\.50/);
      // The receipt alone: nothing of the screen behind it.
      expect(text).not.toMatch(/Sales & Payments|Record Payment|Close/);
    } finally {
      await context.close();
    }
  });

  it('[B10] a payment’s link opens its receipt over the Payments tab, with no signal too', async () => {
    const link = await startPhoneLink(server);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const page = await signInThroughUi(context, link, ADMIN);
      await serviceWorkerInControl(page);
      const path = () => new URL(page.url()).pathname;
      await page.goto(`${link.url}/sales`);
      // The Payments tab has an address of its own, and so has each payment's receipt.
      await page.getByRole('tab', { name: 'Payments' }).click();
      await expect.poll(path).toBe('/payments');
      const row = page.getByRole('listitem').filter({ hasText: 'Second installment' });
      await row.getByRole('button', { name: 'Download Receipt' }).click();
      await expect.poll(path).toBe(`/payments/${paymentId}`);
      const dialog = page.getByRole('dialog', { name: 'Payment Receipt' });
      await dialog.getByText(`Receipt no. ${receiptNumber(paymentId)}`).waitFor();
      await dialog.getByRole('button', { name: 'Close' }).first().click();
      await expect.poll(path).toBe('/payments');
      expect(await page.getByRole('tab', { name: 'Payments' }).getAttribute('aria-selected')).toBe('true');

      // Synced once: the link opens offline, from the device.
      await link.setOffline(context, true);
      await page.goto(`${link.url}/payments/${paymentId}`);
      await dialog.getByText(`Receipt no. ${receiptNumber(paymentId)}`).waitFor({ timeout: 20_000 });
      expect(await dialog.getByTestId('remaining-balance').textContent()).toBe('$5,499.50');
      await page.goto(`${link.url}/payments/no-such-payment`);
      await page.getByRole('alert').filter({ hasText: 'This payment is not on this device' }).waitFor();
      await page.getByRole('tab', { name: 'Sales' }).click();
      await expect.poll(path).toBe('/sales');
    } finally {
      await context.close();
      await link.close();
    }
  });
});
