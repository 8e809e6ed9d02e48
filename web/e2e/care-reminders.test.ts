import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/index.ts';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { navigate, record, rowAction } from './support/screens.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

type ApiCareEntry = { horseId: string; kind: string; recordedByName: string | null };

/**
 * Care records and the bell end to end ([K2]–[K4]): a farrier visit for three horses is
 * recorded on a phone with no signal and shows on each horse; the bell lists a Coggins test
 * overdue and an installment past due, and each clears once recorded or paid.
 */
describe('care records and what is due', () => {
  let server: AppServer;
  let link: PhoneLink;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;
  const horses: Record<string, string> = {};
  const today = new Date().toISOString().slice(0, 10);

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
    ] as const) {
      ids[kind] = (await api<{ id: string }>(`/api/${kind}`, { method: 'POST', body: JSON.stringify({ name }) })).id;
    }
    for (const name of ['Dusty', 'Star', 'Goliath', 'Comet']) {
      const horse = await api<{ id: string }>('/api/horses', {
        method: 'POST',
        body: JSON.stringify({ name, breedId: ids.breeds, colorId: ids.colors, genderId: ids.genders }),
      });
      horses[name] = horse.id;
    }
    // A Coggins test done over a year ago, due five weeks ago.
    await api('/api/careEntries', {
      method: 'POST',
      body: JSON.stringify({ horseIds: [horses.Dusty], kind: 'coggins', doneOn: addDays(today, -400), nextDueOn: addDays(today, -35) }),
    });
    // A sale whose schedule started ten weeks ago: three installments are due and none paid.
    const buyer = await api<{ id: string }>('/api/buyers', {
      method: 'POST',
      body: JSON.stringify({ firstName: 'Bo', lastName: 'Buyer' }),
    });
    await api('/api/sales', {
      method: 'POST',
      body: JSON.stringify({
        horseId: horses.Comet,
        buyerId: buyer.id,
        salePrice: '1200',
        downPayment: '0',
        termsMonths: 12,
        scheduleStartDate: addDays(today, -70),
      }),
    });
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  const field = (scope: Locator, label: string) => scope.getByLabel(new RegExp(`^${label}( \\*)?$`));
  const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
  const dueList = (page: Page) => page.getByRole('list', { name: 'Due' });

  async function openDetails(page: Page, horse: string): Promise<Locator> {
    await record(page, horse).first().getByRole('button', { name: 'View Details' }).click();
    const details = page.getByRole('dialog', { name: 'Horse Details' });
    await details.getByText(horse, { exact: true }).waitFor();
    return details;
  }

  it('[K2] [K3] [K4] a farrier visit recorded offline for three horses shows on each; the bell shows a Coggins test overdue and an installment past due, which clear when recorded and paid', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    phone.setDefaultTimeout(20_000);
    const page = await signInThroughUi(phone, link, ADMIN);
    await serviceWorkerInControl(page);
    await navigate(page, 'Horses', 'Horse Inventory');
    await record(page, 'Goliath').first().waitFor({ timeout: 30_000 });

    await link.setOffline(phone, true);
    await page.reload();
    await page.getByRole('heading', { name: 'Horse Inventory' }).waitFor();
    await record(page, 'Goliath').first().waitFor();

    await page.getByRole('button', { name: 'Record Care' }).click();
    const visit = page.getByRole('dialog', { name: 'Record Care' });
    for (const horse of ['Dusty', 'Star', 'Goliath']) await visit.getByRole('checkbox', { name: horse }).check();
    await visit.getByText('3 horses chosen').waitFor();
    await field(visit, 'Care').selectOption({ label: 'Farrier' });
    await field(visit, 'Next Due').fill(addDays(today, 42));
    await field(visit, 'Notes').fill('Reset front shoes');
    await visit.getByRole('button', { name: 'Record Care' }).click();
    await page.getByText('Care recorded for 3 horses').waitFor();
    await visit.waitFor({ state: 'hidden' });

    for (const horse of ['Dusty', 'Star', 'Goliath']) {
      const details = await openDetails(page, horse);
      // [B16] A compact row: the care and its date, then when it is next due and the notes.
      const timeline = details.getByRole('list', { name: 'Care timeline' });
      const row = timeline.locator('li[data-row]').filter({ hasText: 'Reset front shoes' });
      await row.getByText(/^Next due /).waitFor();
      // [K8] Its details, by a tap: who recorded it.
      await row.getByRole('button', { name: /View Details/ }).click();
      const entry = page.getByRole('dialog', { name: 'Care Details' });
      await entry.getByText('Recorded by').waitFor();
      await entry.getByRole('button', { name: 'Close', exact: true }).click();
      await entry.waitFor({ state: 'hidden' });
      await details.getByRole('button', { name: 'Close', exact: true }).click();
    }
    expect(await api<ApiCareEntry[]>('/api/careEntries')).toHaveLength(1);

    // The bell: something is due, with its dot.
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, unread');
    await bell(page).click();
    await dueList(page).getByText('Coggins test overdue: Dusty').waitFor();
    await dueList(page).getByText('Installment past due: Comet').waitFor();
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications');

    // Back in signal: the visit reaches the server, recorded by the person who made it.
    await link.setOffline(phone, false);
    await expect
      .poll(async () => (await api<ApiCareEntry[]>('/api/careEntries')).filter((entry) => entry.kind === 'farrier').length, {
        timeout: 30_000,
      })
      .toBe(3);
    const farrier = (await api<ApiCareEntry[]>(`/api/careEntries?horseId=${horses.Star}`))[0];
    expect(farrier).toMatchObject({ kind: 'farrier', horseId: horses.Star });

    // The Coggins line opens Dusty; recording the test there clears it.
    await dueList(page).getByText('Coggins test overdue: Dusty').click();
    const dusty = page.getByRole('dialog', { name: 'Horse Details' });
    await dusty.getByText('Dusty', { exact: true }).waitFor();
    await dusty.getByRole('button', { name: 'Record Care' }).click();
    const coggins = page.getByRole('dialog', { name: 'Record Care' });
    await expect.poll(() => coggins.getByRole('checkbox', { name: 'Dusty' }).isChecked()).toBe(true);
    await field(coggins, 'Care').selectOption({ label: 'Coggins test' });
    await field(coggins, 'Next Due').fill(addDays(today, 365));
    await coggins.getByRole('button', { name: 'Record Care' }).click();
    await page.getByText('Care recorded for 1 horse').waitFor();
    await coggins.waitFor({ state: 'hidden' });
    // The page behind stays locked while Horse Details is still open, and is let go with it (ui/page-lock.ts).
    const locked = () => page.evaluate(() => document.documentElement.hasAttribute('data-page-locked'));
    expect(await locked()).toBe(true);
    await dusty.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(locked).toBe(false);
    await bell(page).click();
    await dueList(page).getByText('Installment past due: Comet').waitFor();
    await expect.poll(() => dueList(page).getByText('Coggins test overdue: Dusty').count()).toBe(0);
    await bell(page).click();

    // Paying the sale clears the installment.
    await navigate(page, 'Sales', 'Sales & Payments');
    await rowAction(record(page, 'Comet').first(), 'Add Payment');
    const payment = page.getByRole('dialog', { name: 'Record Payment' });
    await field(payment, 'Amount').fill('1200');
    await field(payment, 'Payment Method').selectOption({ label: 'Cash' });
    await payment.getByRole('button', { name: 'Record Payment' }).click();
    await page.getByText('Payment recorded successfully').waitFor();
    await bell(page).click();
    await page.getByText('No new notifications').waitFor();
    await expect.poll(() => page.getByRole('list', { name: 'Due' }).count()).toBe(0);
    await phone.close();
  });
});
