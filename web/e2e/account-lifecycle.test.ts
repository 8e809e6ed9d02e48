import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { restClient, sessionCookie, signInThroughUi } from './support/session.ts';

type ApiUser = { id: string; email: string; isActive: boolean };

const DEE = { email: 'dee@ranch.test', password: 'stable password', firstName: 'Dee', lastName: 'Parted', role: 'Staff' };
const ERIN = { email: 'erin@ranch.test', password: 'stable password', firstName: 'Erin', lastName: 'Desk', role: 'Staff' };
const FAY = { email: 'fay@ranch.test', password: 'stable password', firstName: 'Fay', lastName: 'Field', role: 'Staff' };

/** The status of a call the page makes itself, with its own cookie. */
const statusFromPage = (page: Page, path: string) => page.evaluate(async (url) => (await fetch(url)).status, path);

/** Signs in through the sign-in page and returns the error it shows. */
async function signInError(page: Page, server: AppServer, credentials: { email: string; password: string }): Promise<string> {
  await page.goto(`${server.url}/api/login`);
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  return (await page.getByRole('alert').textContent()) ?? '';
}

/**
 * Taking access away while someone works: an Admin deactivates a user whose app is open;
 * a user changes their password, and their other device is signed out; a user signs out
 * everywhere from the user menu.
 */
describe('accounts an office can run', () => {
  let server: AppServer;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;
  const contexts: BrowserContext[] = [];

  async function desk(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    contexts.push(context);
    return context;
  }

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
    for (const user of [DEE, ERIN, FAY]) await api('/api/users', { method: 'POST', body: JSON.stringify(user) });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
  });

  it('[U11] an Admin deactivates a user whose app is open: their next request and their sign-in fail', async () => {
    const deePage = await signInThroughUi(await desk(), server, DEE);
    expect(await statusFromPage(deePage, '/api/auth/user')).toBe(200);

    const adminPage = await signInThroughUi(await desk(), server, ADMIN);
    await adminPage.goto(`${server.url}/users`);
    const row = adminPage.getByRole('row').filter({ hasText: DEE.email });
    await row.getByRole('button', { name: /^Deactivate/ }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Deactivate User' });
    await dialog.getByText(/signed out on every device at once/).waitFor();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await adminPage.getByText('User deactivated successfully').waitFor();
    await row.getByText('Inactive').waitFor();
    expect((await api<ApiUser[]>('/api/users')).find((user) => user.email === DEE.email)?.isActive).toBe(false);

    // Dee's open app: the session is gone on the server, so the next call is refused and a
    // reload no longer opens the ranch.
    expect(await statusFromPage(deePage, '/api/auth/user')).toBe(401);
    await deePage.reload();
    await deePage
      .getByRole('button', { name: /Sign In/ })
      .first()
      .waitFor();
    expect(await deePage.getByRole('heading', { name: 'Dashboard' }).count()).toBe(0);
    expect(await signInError(deePage, server, DEE)).toBe('Invalid email or password.');

    // Reactivated, Dee signs in again with the same password.
    await row.getByRole('button', { name: /^Reactivate/ }).click();
    await adminPage.getByRole('dialog', { name: 'Reactivate User' }).getByRole('button', { name: 'Reactivate' }).click();
    await adminPage.getByText('User reactivated successfully').waitFor();
    await signInThroughUi(await desk(), server, DEE);
  });

  it('[U13] a user changes their password in Profile: their other device is signed out, this one stays', async () => {
    const phone = restClient(server, await sessionCookie(server, ERIN));
    const page = await signInThroughUi(await desk(), server, ERIN);
    await page.goto(`${server.url}/profile`);
    const card = page.getByRole('region', { name: 'Change Password' });
    await card.getByLabel('Current Password').fill(ERIN.password);
    await card.getByLabel('New Password', { exact: true }).fill('a brand new password');
    await card.getByLabel('Confirm New Password').fill('a brand new password');
    await card.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Password changed successfully. Your other devices are signed out.').waitFor();

    await expect(phone('/api/auth/user')).rejects.toThrow(/401/);
    expect(await statusFromPage(page, '/api/auth/user')).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'Profile', exact: true, level: 1 }).waitFor();
    await expect(sessionCookie(server, ERIN)).rejects.toThrow(/failed/);
    expect(await sessionCookie(server, { email: ERIN.email, password: 'a brand new password' })).toMatch(/ranch_session=/);
  });

  it('[U14] Sign out everywhere in the user menu signs the user out on this computer and on their other one', async () => {
    const other = await signInThroughUi(await desk(), server, FAY);
    const page = await signInThroughUi(await desk(), server, FAY);
    await page.getByRole('button', { name: 'User menu: Fay Field, Staff' }).click();
    await page.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
    await page.getByRole('button', { name: 'Sign In to Continue' }).waitFor();
    expect(await statusFromPage(page, '/api/auth/user')).toBe(401);
    // [A13]: the other computer's socket closes with 4401; with nothing unsent it is cleared
    // and goes to the sign-in page by itself.
    await other.waitForURL('**/api/login');
    await other
      .getByRole('button', { name: /Sign In/ })
      .first()
      .waitFor();
    expect(await statusFromPage(other, '/api/auth/user')).toBe(401);
    // Only sessions ended: Fay signs in again as before.
    await signInThroughUi(await desk(), server, FAY);
  });
});
