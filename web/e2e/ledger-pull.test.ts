import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/index.ts';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { createHorseLookups, restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

/**
 * Issue 68 (D1): a sale recorded in the ledger by another client (REST `POST /api/ledger`)
 * reaches a device's read database through the ledger's pull (docs/web.md "Data"): its
 * Sales list and the horse's screens show it at once, and still with no signal after a reload.
 */
describe('a sale recorded in the ledger elsewhere', () => {
  let server: AppServer;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;
  let link: PhoneLink;
  let horseId = '';
  let buyerId = '';

  beforeAll(async () => {
    server = await startAppServer();
    link = await startPhoneLink(server);
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
    const lookups = await createHorseLookups(api, { breed: 'Quarter Horse', color: 'Bay', gender: 'Mare' });
    const status = await api<{ id: string }>('/api/statuses', { method: 'POST', body: JSON.stringify({ name: 'For Sale' }) });
    horseId = (
      await api<{ id: string }>('/api/horses', {
        method: 'POST',
        body: JSON.stringify({ name: 'Comet', ...lookups, statusId: status.id, priceUsd: '12000' }),
      })
    ).id;
    buyerId = (await api<{ id: string }>('/api/buyers', { method: 'POST', body: JSON.stringify({ firstName: 'Bo', lastName: 'Buyer' }) }))
      .id;
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  it('shows on the Sales list and the horse’s screens at once, and offline after a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await signInThroughUi(context, link, ADMIN);
    await serviceWorkerInControl(page);
    await page.goto(`${link.url}/sales`);
    await page.getByRole('heading', { name: 'Sales & Payments' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Comet' });
    expect(await row.count()).toBe(0);

    const answer = await api<{ results: { outcome: string }[] }>('/api/ledger', {
      method: 'POST',
      body: JSON.stringify({
        entries: [
          {
            id: newId(),
            collection: 'sales',
            record: {
              horseId,
              buyerId,
              salePrice: '12000',
              downPayment: '2000',
              termsMonths: 12,
              interestApr: null,
              scheduleStartDate: null,
              previousStatusId: null,
              createdAt: new Date().toISOString(),
            },
          },
        ],
      }),
    });
    expect(answer.results).toMatchObject([{ outcome: 'recorded' }]);

    // The socket's notice brings it: no reload.
    await row.getByText('Bo Buyer').waitFor({ timeout: 30_000 });
    await row
      .getByText(/\$12,000/)
      .first()
      .waitFor();

    const horseScreens = async () => {
      await page.goto(`${link.url}/horses/${horseId}`);
      const details = page.getByRole('dialog', { name: 'Horse Details' });
      // The server marked the horse Sold in the document ([S18]).
      await details.getByText('Sold', { exact: true }).waitFor({ timeout: 30_000 });
      await details.getByRole('button', { name: 'Close' }).first().click();
      // The sale in the read database keeps the horse from being deleted.
      await page.getByRole('row').filter({ hasText: 'Comet' }).getByRole('button', { name: 'Delete' }).click();
      await page
        .getByRole('dialog', { name: 'Are you sure you want to delete this horse?' })
        .getByText('Comet has a sale on record and cannot be deleted.')
        .waitFor();
    };
    await horseScreens();

    await link.setOffline(context, true);
    await page.goto(`${link.url}/sales`);
    await page.getByRole('heading', { name: 'Sales & Payments' }).waitFor();
    await row.getByText('Bo Buyer').waitFor();
    await page.reload();
    await row
      .getByText(/\$12,000/)
      .first()
      .waitFor();
    await horseScreens();
    await context.close();
  });
});
