import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { navigate, record, rowAction, toast } from './support/screens.ts';
import { restClient, sessionCookie, signInThroughUi } from './support/session.ts';

const PAT = { email: 'pat@ranch.test', password: 'stable password', firstName: 'Pat', lastName: 'Phone', role: 'Staff' };
const DANA = { email: 'dana@ranch.test', password: 'stable password', firstName: 'Dana', lastName: 'Desk', role: 'Staff' };

/**
 * [T1] [T3] [T4] Who changed this, and when: a horse's price edited on a phone (the socket)
 * and at a desk (REST) shows in the horse's History with both names, and on the Dashboard.
 */
describe('the history of a horse names who changed it', () => {
  let server: AppServer;
  let browser: Browser;
  let admin: ReturnType<typeof restClient>;
  let horse: { id: string } & Record<string, unknown>;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    admin = restClient(server, await sessionCookie(server, ADMIN));
    for (const user of [PAT, DANA]) await admin('/api/users', { method: 'POST', body: JSON.stringify(user) });
    const ids: Record<string, string> = {};
    for (const [kind, name] of [
      ['breeds', 'Shire'],
      ['colors', 'Bay'],
      ['genders', 'Mare'],
    ] as const) {
      ids[kind] = (await admin<{ id: string }>(`/api/${kind}`, { method: 'POST', body: JSON.stringify({ name }) })).id;
    }
    horse = await admin('/api/horses', {
      method: 'POST',
      body: JSON.stringify({ name: 'Dusty', breedId: ids.breeds, colorId: ids.colors, genderId: ids.genders, priceUsd: '1500' }),
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('[T3] a price changed on a phone and at a desk: History shows both changes with names, the Dashboard the latest', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await signInThroughUi(phone, server, PAT);
    await navigate(page, 'Horses', 'Horse Inventory');
    await rowAction(record(page, 'Dusty').first(), 'Edit');
    const edit = page.getByRole('dialog', { name: 'Edit Horse' });
    await expect.poll(() => edit.getByLabel('Price').inputValue()).toBe('$1,500');
    await edit.getByLabel('Price').fill('1800');
    await edit.getByRole('button', { name: 'Update Horse' }).click();
    await toast(page, 'Horse updated successfully');
    // The phone's change reaches the server on the socket before the desk changes the price again.
    await expect
      .poll(async () => (await admin<{ id: string; priceUsd: string }[]>('/api/horses')).find((h) => h.id === horse.id)?.priceUsd, {
        timeout: 20_000,
      })
      .toBe('1800.00');
    const dana = restClient(server, await sessionCookie(server, DANA));
    await dana(`/api/horses/${horse.id}`, { method: 'PUT', body: JSON.stringify({ ...horse, priceUsd: '2100' }) });

    await record(page, 'Dusty').first().getByRole('button', { name: 'View Details' }).click();
    const details = page.getByRole('dialog', { name: 'Horse Details' });
    const changes = details.getByRole('region', { name: 'History' }).getByRole('listitem');
    await expect.poll(() => changes.allTextContents()).toHaveLength(3);
    const [latest, earlier, created] = await changes.allTextContents();
    expect(latest).toMatch(/^Price changed from \$1,800 to \$2,100 — Dana Desk, .+$/);
    expect(latest).not.toContain('device:');
    // The phone stamped its change with its own clock: shown as the device's claim.
    expect(earlier).toMatch(/^Price changed from \$1,500 to \$1,800 — Pat Phone, .+ \(device: .+\)$/);
    expect(created).toMatch(/^Created — /);
    await page.keyboard.press('Escape');

    await navigate(page, 'Dashboard', 'Dashboard');
    const recent = page.getByRole('list', { name: 'Recent changes' });
    await recent.getByText('Dana Desk changed Price of horse Dusty').waitFor();
    await recent.getByText('Pat Phone changed Price of horse Dusty').waitFor();
    await recent.getByText('System initialized').waitFor();
    await phone.close();
  });
});
