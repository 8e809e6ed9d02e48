import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

type ApiUser = { id: string; email: string; role: string };

const SAM = { email: 'sam@ranch.test', password: 'stable password', firstName: 'Sam', lastName: 'Stable', role: 'Staff' };
const STELLA = { email: 'stella@ranch.test', password: 'stable password', firstName: 'Stella', lastName: 'Hand', role: 'Staff' };

/**
 * User Management: an Admin changes someone's role at a desk; Staff on a phone is turned
 * away. Also the own account: a profile change reaches the server, and the theme chosen
 * in Settings survives a reload.
 */
describe('user management and the own account', () => {
  let server: AppServer;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;
  let link: PhoneLink;

  beforeAll(async () => {
    server = await startAppServer();
    link = await startPhoneLink(server);
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
    for (const user of [SAM, STELLA]) await api('/api/users', { method: 'POST', body: JSON.stringify(user) });
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  it('[U4] an Admin at a desk changes another user role', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    const page = await signInThroughUi(context, server, ADMIN);
    await page.goto(`${server.url}/users`);
    await page.getByRole('heading', { name: 'User Management' }).waitFor();

    const own = page.getByRole('row').filter({ hasText: ADMIN.email });
    await own.getByText('Your Account').waitFor();
    expect(await own.getByRole('button', { name: /Change Role/ }).count()).toBe(0);

    const sam = page.getByRole('row').filter({ hasText: SAM.email });
    await sam.getByRole('button', { name: /Change Role/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Change User Role' });
    await dialog.getByText('Select a new role for the user').waitFor();
    await dialog.getByLabel('Role').selectOption('Viewer');
    await dialog.getByRole('button', { name: 'Update Role' }).click();
    await page.getByText('User role updated successfully').waitFor();
    await sam.getByText('Viewer', { exact: true }).waitFor();

    const users = await api<ApiUser[]>('/api/users');
    expect(users.find((user) => user.email === SAM.email)?.role).toBe('Viewer');
    await context.close();
  });

  it('[U19] [U20] the list counts and sorts, and a person’s link opens their details at a desk and, with no signal, on a phone', async () => {
    const stella = (await api<ApiUser[]>('/api/users')).find((user) => user.email === STELLA.email)!;
    const desk = await browser.newContext({ viewport: { width: 1366, height: 800 } });
    desk.setDefaultTimeout(20_000);
    const page = await signInThroughUi(desk, server, ADMIN);
    await page.goto(`${server.url}/users`);
    const count = page.getByTestId('list-count');
    await expect.poll(() => count.textContent()).toBe('3 users');
    const emails = () => page.getByRole('table', { name: 'Users' }).locator('tbody tr td:nth-child(2)').allTextContents();
    await page.getByRole('button', { name: /^Email/ }).click();
    await page.getByRole('button', { name: /^Email/ }).click();
    await expect.poll(emails).toEqual([STELLA.email, SAM.email, ADMIN.email].sort().reverse());
    await page.getByLabel('Search users').fill('stella');
    await expect.poll(() => count.textContent()).toBe('1 of 3 users');

    // The row's name is its link, Enter opens it; the details have the row's actions.
    const name = page.getByRole('table', { name: 'Users' }).getByRole('link', { name: 'Stella Hand' });
    await name.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/users/${stella.id}`);
    const details = page.getByRole('dialog', { name: 'User Details' });
    await details.getByText(STELLA.email).waitFor();
    expect(await details.getByRole('button', { name: 'Change Role of Stella Hand' }).isEnabled()).toBe(true);
    // Escape closes them, back to the list's address, and the focus is back on the name.
    await page.keyboard.press('Escape');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/users');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Stella Hand');
    await desk.close();

    // A phone that has seen the list once opens a person's link with no signal.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    phone.setDefaultTimeout(20_000);
    const mobile = await signInThroughUi(phone, link, ADMIN);
    await serviceWorkerInControl(mobile);
    await mobile.goto(`${link.url}/users`);
    await mobile.locator('li[data-row]').filter({ hasText: STELLA.email }).waitFor();
    await link.setOffline(phone, true);
    await mobile.goto(`${link.url}/users/${stella.id}`);
    const offline = mobile.getByRole('dialog', { name: 'User Details' });
    await offline.getByText(STELLA.email).waitFor();
    await offline.getByText(/^As the user list was fetched on this device /).waitFor();
    await offline.getByText('You are offline — account changes need a connection.').waitFor();
    expect(await offline.getByRole('button', { name: 'Change Role of Stella Hand' }).isDisabled()).toBe(true);
    // A link to an account the list does not have says so.
    await mobile.goto(`${link.url}/users/no-such-user`);
    await mobile.getByRole('alert').filter({ hasText: 'This user is not on this device' }).waitFor();
    await phone.close();
  });

  it('[R4] Staff on a phone gets Access Denied and is sent to the dashboard', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    context.setDefaultTimeout(20_000);
    const page = await signInThroughUi(context, server, STELLA);
    const usersCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/users') usersCalls.push(request.url());
    });
    await page.goto(`${server.url}/users`);
    await page.getByText('Access Denied').waitFor();
    await page.getByText("You don't have permission to access this page.").waitFor();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(usersCalls).toEqual([]);
    await context.close();
  });

  it('[U8] [V5] Staff edits the own profile and keeps dark mode across a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    const page = await signInThroughUi(context, server, STELLA);
    await page.goto(`${server.url}/profile`);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Last Name').fill('Rider');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile updated successfully').waitFor();
    await page.getByRole('region', { name: 'Profile Overview' }).getByText('Stella Rider').waitFor();
    const stella = restClient(server, await sessionCookie(server, STELLA));
    expect(await stella<{ lastName: string }>('/api/auth/user')).toMatchObject({ lastName: 'Rider' });

    await page.goto(`${server.url}/settings`);
    await page.getByRole('switch', { name: /^Dark Mode/ }).check();
    await page.reload();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('ranch-dark');
    expect(await page.getByRole('switch', { name: /^Dark Mode/ }).isChecked()).toBe(true);
    await context.close();
  });
});
