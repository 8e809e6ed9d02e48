import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { serviceWorkerInControl, signInThroughUi } from './support/session.ts';

/**
 * The Content-Security-Policy allows no inline script, no eval and no framing: the app, its
 * sign-in page and its service worker must work under it without one violation, or a
 * blocked style or script would break a screen silently.
 */
describe('[X2] the app under its Content-Security-Policy', () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs in and opens every screen with no violation; the sign-in page keeps its style', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(20_000);
    const violations: string[] = [];
    await context.exposeBinding('reportViolation', (_source, text: string) => void violations.push(text));
    await context.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { reportViolation(text: string): void }).reportViolation(
          `${location.pathname}: ${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`,
        ),
      ),
    );
    const login = await context.newPage();
    await login.goto(`${server.url}/api/login`);
    // The page's own inline style applies (its hash is in the policy): the button is styled.
    expect(await login.getByRole('button', { name: 'Sign In' }).evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(
      'rgb(124, 74, 30)',
    );
    await login.close();

    const page = await signInThroughUi(context, server, ADMIN);
    await serviceWorkerInControl(page);
    for (const [path, heading] of [
      ['/horses', 'Horse Inventory'],
      ['/owners', 'Suppliers'],
      ['/buyers', 'Buyers'],
      ['/sales', 'Sales & Payments'],
      ['/settings', 'Settings'],
      ['/profile', 'Profile'],
      ['/admin', 'Administration'],
      ['/users', 'User Management'],
      ['/', 'Dashboard'],
    ]) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
    }
    expect(violations).toEqual([]);
    await context.close();
  });
});
