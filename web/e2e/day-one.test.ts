import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../sync-server/test/support/databases.ts';
import { spawnServer, type ServerProcess } from '../../sync-server/test/support/server-process.ts';
import { launchChromium } from './support/browser.ts';

const OWNER = {
  ranch: 'Willow Creek Ranch',
  firstName: 'Dana',
  lastName: 'Reyes',
  email: 'dana@willow.test',
  password: 'owner password 1',
};
const STAFF = { firstName: 'Sam', lastName: 'Ortiz', email: 'sam@willow.test', password: 'staff password 1' };

/** Collects the Content-Security-Policy violations of every page of `context` (none expected). */
async function watchViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('reportViolation', (_source, text: string) => void violations.push(text));
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation(text: string): void }).reportViolation(
        `${location.pathname}: ${event.violatedDirective} ${event.blockedURI}`,
      ),
    ),
  );
  return violations;
}

/**
 * Issue 69's first day, in Chromium, as an owner who never used a terminal: a fresh data
 * folder and no admin settings → the setup address from the server's output → the owner's
 * account and the default lists → a horse added at once → a Staff invited by link in
 * another browser, who sets a password and is signed in; a used link and one a newer link
 * ended are refused. (A link past its 7 days: sync-server/test/account-links.test.ts.)
 */
describe('day one: from a fresh data folder to a team', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    database = await createTestDatabase(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    server = await spawnServer(database);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.kill('SIGTERM');
    await database?.drop();
  });

  it('[A14] [L8] [H11] [U17] sets the ranch up, adds a horse, invites a Staff who signs in; old links are refused', async () => {
    // The setup address, as the server prints it.
    await expect.poll(() => server.output(), { timeout: 20_000 }).toMatch(/Set up the ranch/);
    const setupUrl = /(http:\/\/127\.0\.0\.1:\d+\/api\/setup\/[a-z2-7]{32})/.exec(server.output())?.[1];
    expect(setupUrl).toBeDefined();

    const desk = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    desk.setDefaultTimeout(20_000);
    const deskViolations = await watchViolations(desk);
    const page = await desk.newPage();
    await page.goto(setupUrl!);
    await page.getByLabel('Ranch name').fill(OWNER.ranch);
    await page.getByLabel('First name').fill(OWNER.firstName);
    await page.getByLabel('Last name').fill(OWNER.lastName);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password (at least 8 characters)').fill(OWNER.password);
    await page.getByLabel('Password again').fill(OWNER.password);
    // The page's inline style is the sign-in page's, allowed by its hash: the button is styled.
    expect(
      await page.getByRole('button', { name: 'Create Ranch' }).evaluate((button) => getComputedStyle(button).backgroundColor),
    ).not.toBe('rgba(0, 0, 0, 0)');
    await page.getByRole('button', { name: 'Create Ranch' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // The default lists are there, and a horse can be added at once.
    await page.goto(`${server.url}/horses`);
    await page.getByText('Add your first horse with Add Horse.').waitFor();
    await page.getByRole('button', { name: 'Add Horse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Horse' });
    await dialog.getByLabel('Name').fill('First Light');
    await dialog.getByLabel('Breed').selectOption({ label: 'Quarter Horse' });
    await dialog.getByLabel('Color').selectOption({ label: 'Bay' });
    await dialog.getByLabel('Gender').selectOption({ label: 'Mare' });
    await dialog.getByLabel('Status').selectOption({ label: 'Available' });
    await dialog.getByRole('button', { name: 'Create Horse' }).click();
    await page.getByText('Horse created successfully').waitFor();
    await page.getByRole('row').filter({ hasText: 'First Light' }).waitFor();

    // The owner invites a Staff member from the Users screen.
    await page.goto(`${server.url}/users`);
    await page.getByRole('button', { name: 'Add Person' }).click();
    const invite = page.getByRole('dialog', { name: 'Add Person' });
    await invite.getByLabel('First Name').fill(STAFF.firstName);
    await invite.getByLabel('Last Name').fill(STAFF.lastName);
    await invite.getByLabel('Email').fill(STAFF.email);
    await invite.getByLabel('Role').selectOption('Staff');
    await invite.getByRole('button', { name: 'Create Link' }).click();
    const shown = page.getByRole('dialog', { name: 'Invitation Link' });
    await shown.getByRole('img', { name: `QR code of the link for ${STAFF.firstName} ${STAFF.lastName}` }).waitFor();
    const link = await shown.getByRole('textbox', { name: 'Link' }).inputValue();
    expect(link).toMatch(/\/api\/account-link\/[a-z2-7]{32}$/);

    // In another browser (the person's phone), the link sets their password and signs them in.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    phone.setDefaultTimeout(20_000);
    const phoneViolations = await watchViolations(phone);
    const staffPage = await phone.newPage();
    await staffPage.goto(link);
    await staffPage.getByText(`Welcome, ${STAFF.firstName}.`).waitFor();
    await staffPage.getByLabel('Password (at least 8 characters)').fill(STAFF.password);
    await staffPage.getByLabel('Password again').fill(STAFF.password);
    await staffPage.getByRole('button', { name: 'Set Password' }).click();
    await staffPage.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await staffPage.evaluate(async () => (await (await fetch('/api/auth/user')).json()).role)).toBe('Staff');
    // The horse the owner added has reached them.
    await staffPage.goto(`${server.url}/horses`);
    await staffPage.getByText('First Light').first().waitFor();

    // The same link again: refused, clearly.
    const stranger = await browser.newContext();
    const again = await stranger.newPage();
    const used = await again.goto(link);
    expect(used?.status()).toBe(410);
    await again.getByText('This link was used already').waitFor();

    // A newer link for Sam ends the one before: the older answers clearly too.
    await page.keyboard.press('Escape');
    const row = page.getByRole('row').filter({ hasText: STAFF.email });
    await row.getByRole('button', { name: /Password Link/ }).click();
    const first = await page.getByRole('dialog', { name: 'Password Link' }).getByRole('textbox', { name: 'Link' }).inputValue();
    await page.getByRole('button', { name: 'Done' }).click();
    await row.getByRole('button', { name: /Password Link/ }).click();
    await page.getByRole('dialog', { name: 'Password Link' }).getByRole('textbox', { name: 'Link' }).inputValue();
    const older = await again.goto(first);
    expect(older?.status()).toBe(410);
    await again.getByText('This link has expired. Ask an Admin for a new one.').waitFor();

    expect([...deskViolations, ...phoneViolations]).toEqual([]);
    for (const context of [desk, phone, stranger]) await context.close();
  }, 180_000);
});
