import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { navigate, record, rowAction, toast } from './support/screens.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

const ALICE = { email: 'alice@ranch.test', password: 'stable password', firstName: 'Alice', lastName: 'Smith', role: 'Staff' };
const BOB = { email: 'bob@ranch.test', password: 'stable password', firstName: 'Bob', lastName: 'Jones', role: 'Staff' };
const PRICE_CONFLICT = 'Price changed at the same time';

type Phone = { context: BrowserContext; page: Page; link: PhoneLink };

/**
 * [T6] Two phones, two people, one horse: both change its price with no signal, both come
 * back. Neither change vanishes silently: both phones mark the horse's row and list the
 * conflict in the bell ([T8]), and show it on the horse; one person puts the other value back
 * (with no signal, so it is sent later), the other's details left open follow the answer, the
 * conflict goes from both (banner, row, bell), and the History lists all three changes with the names.
 */
describe('a price changed on two phones at the same time', () => {
  let server: AppServer;
  let browser: Browser;
  let admin: ReturnType<typeof restClient>;
  let horseId: string;
  const phones: Phone[] = [];

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    admin = restClient(server, await sessionCookie(server, ADMIN));
    for (const user of [ALICE, BOB]) await admin('/api/users', { method: 'POST', body: JSON.stringify(user) });
    const ids: Record<string, string> = {};
    for (const [kind, name] of [
      ['breeds', 'Shire'],
      ['colors', 'Bay'],
      ['genders', 'Mare'],
    ] as const) {
      ids[kind] = (await admin<{ id: string }>(`/api/${kind}`, { method: 'POST', body: JSON.stringify({ name }) })).id;
    }
    horseId = (
      await admin<{ id: string }>('/api/horses', {
        method: 'POST',
        body: JSON.stringify({ name: 'Dusty', breedId: ids.breeds, colorId: ids.colors, genderId: ids.genders, priceUsd: '9000' }),
      })
    ).id;
  });

  afterAll(async () => {
    for (const phone of phones) await phone.context.close().catch(() => {});
    await browser?.close();
    for (const phone of phones) await phone.link.close();
    await server?.stop();
  });

  /** A phone on its own link (its signal can go without the other's), signed in, on the horse list. */
  async function openPhone(user: typeof ALICE): Promise<Phone> {
    const link = await startPhoneLink(server);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const phone = { context, link, page: await signInThroughUi(context, link, user) };
    phones.push(phone);
    // The phones go offline and then open the edit form, a chunk loaded when first opened:
    // offline it comes from the service worker's precache, so the worker must be in control
    // (a clean-clone CI run failed here when the signal went before it was).
    await serviceWorkerInControl(phone.page);
    await navigate(phone.page, 'Horses', 'Horse Inventory');
    await record(phone.page, 'Dusty').first().waitFor();
    return phone;
  }

  async function setPrice({ page }: Phone, price: string): Promise<void> {
    await rowAction(record(page, 'Dusty').first(), 'Edit');
    const edit = page.getByRole('dialog', { name: 'Edit Horse' });
    await expect.poll(() => edit.getByLabel('Price').inputValue()).toBe('$9,000');
    await edit.getByLabel('Price').fill(price);
    await edit.getByRole('button', { name: 'Update Horse' }).click();
    await toast(page, 'Horse updated successfully');
  }

  async function openDetails({ page }: Phone) {
    await record(page, 'Dusty').first().getByRole('button', { name: 'View Details' }).click();
    return page.getByRole('dialog', { name: 'Horse Details' });
  }

  const serverPrice = async () => (await admin<{ id: string; priceUsd: string }[]>('/api/horses')).find((h) => h.id === horseId)?.priceUsd;
  const openConflicts = async () => (await admin<{ conflicts: unknown[] }>('/api/conflicts')).conflicts.length;

  it('[T6] both phones see it, one answers, it goes from both, and the History names everyone', async () => {
    // Signed in one after the other: sign-in is throttled for bursts.
    const alice = await openPhone(ALICE);
    const bob = await openPhone(BOB);

    await alice.link.setOffline(alice.context, true);
    await bob.link.setOffline(bob.context, true);
    await setPrice(alice, '9500');
    await setPrice(bob, '9200');
    expect(await serverPrice()).toBe('9000.00');

    // Alice's signal returns first, then Bob's.
    await alice.link.setOffline(alice.context, false);
    await expect.poll(serverPrice, { timeout: 30_000 }).toBe('9500.00');
    await bob.link.setOffline(bob.context, false);
    await expect.poll(openConflicts, { timeout: 30_000 }).toBe(1);
    const kept = await serverPrice();
    expect(['9500.00', '9200.00']).toContain(kept);
    const dropped = kept === '9500.00' ? '$9,200' : '$9,500';

    // [T8] Both phones mark the horse's row and list the conflict in the bell.
    for (const { page } of [alice, bob]) {
      await record(page, 'Dusty').first().getByText('Conflict: Price', { exact: true }).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Notifications, unread' }).click();
      const entry = page.getByRole('region', { name: 'Conflicts' }).getByRole('link', { name: /^Dusty — Price/ });
      expect(await entry.textContent()).toContain('Alice Smith and Bob Jones changed it at the same time');
      expect(await entry.getAttribute('href')).toBe(`/horses/${horseId}`);
    }
    // Alice follows the bell's link to the horse; Bob closes the panel and opens the horse from its row.
    await alice.page
      .getByRole('region', { name: 'Conflicts' })
      .getByRole('link', { name: /^Dusty — Price/ })
      .click();
    await expect.poll(() => alice.page.evaluate(() => location.pathname)).toBe(`/horses/${horseId}`);
    await bob.page.getByRole('button', { name: 'Notifications' }).click();

    const said = 'Price was changed at the same time by Alice Smith ($9,500) and Bob Jones ($9,200).';
    const banners: Locator[] = [];
    const details: Locator[] = [];
    for (const phone of [alice, bob]) {
      const dialog = phone === alice ? phone.page.getByRole('dialog', { name: 'Horse Details' }) : await openDetails(phone);
      details.push(dialog);
      const banner = dialog.getByRole('region', { name: PRICE_CONFLICT });
      await banner.getByText(said, { exact: true }).waitFor({ timeout: 20_000 });
      // Money always asks; nothing says which one was kept.
      await banner.getByText('Which price is right?', { exact: true }).waitFor();
      expect(await banner.getByRole('button').allTextContents()).toEqual(['$9,500', '$9,200']);
      expect(await banner.textContent()).not.toMatch(/kept/i);
      banners.push(banner);
    }

    // Bob puts back the value the merge dropped, with no signal: it goes from his phone at once
    // and from the server and Alice's phone once his answer arrives.
    await bob.link.setOffline(bob.context, true);
    await banners[1]!.getByRole('button', { name: dropped }).click();
    await expect.poll(() => banners[1]!.count()).toBe(0);
    expect(await openConflicts()).toBe(1);
    expect(await banners[0]!.count()).toBe(1);
    await bob.link.setOffline(bob.context, false);
    await expect.poll(serverPrice, { timeout: 20_000 }).toBe(dropped === '$9,500' ? '9500.00' : '9200.00');
    await expect.poll(openConflicts, { timeout: 20_000 }).toBe(0);
    await expect.poll(() => banners[0]!.count(), { timeout: 20_000 }).toBe(0);
    // Alice's details, left open, show the price Bob chose; then her row and her bell let go of it.
    const shownPrice = (dialog: Locator) =>
      dialog
        .locator('dt', { hasText: /^Price$/ })
        .locator('+ dd')
        .textContent();
    await expect.poll(() => shownPrice(details[0]!), { timeout: 20_000 }).toBe(dropped);

    // The History (fetched when shown): Alice's, Bob's and Bob's answer, each with a name.
    await alice.page.keyboard.press('Escape');
    await expect
      .poll(() =>
        record(alice.page, 'Dusty')
          .first()
          .getByText(/^Conflict/)
          .count(),
      )
      .toBe(0);
    await alice.page.getByRole('button', { name: /^Notifications/ }).click();
    await alice.page.getByText('No new notifications', { exact: true }).waitFor();
    expect(await alice.page.getByRole('region', { name: 'Conflicts' }).count()).toBe(0);
    await alice.page.getByRole('button', { name: /^Notifications/ }).click();
    const history = (await openDetails(alice)).getByRole('region', { name: 'History' }).getByRole('listitem');
    await expect.poll(async () => (await history.allTextContents()).filter((line) => line.startsWith('Price changed')).length).toBe(3);
    const lines = (await history.allTextContents()).filter((line) => line.startsWith('Price changed'));
    expect(lines[0]).toMatch(new RegExp(`^Price changed from \\$[\\d,]+ to \\${dropped} — Bob Jones, `));
    expect(lines[0]).not.toContain('at the same time');
    // Each person's own change, by name; the one that met the other says so, and how the merge left it.
    expect(lines.slice(1).filter((line) => / to \$9,500 .*— Alice Smith, /.test(line))).toHaveLength(1);
    expect(lines.slice(1).filter((line) => / to \$9,200 .*— Bob Jones, /.test(line))).toHaveLength(1);
    const marked = lines.filter((line) => line.includes(' at the same time as '));
    expect(marked).toHaveLength(2);
    // The merge kept one of the two: the other is listed all the same, marked.
    expect(marked.filter((line) => line.includes('(not kept)'))).toHaveLength(1);
    for (const line of marked) {
      expect(line).toMatch(/ at the same time as (Alice Smith \((not )?kept\) — Bob Jones|Bob Jones \((not )?kept\) — Alice Smith), /);
    }
  });
});
