import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { launchChromium } from './support/browser.ts';
import { restClient, sessionCookie, type Credentials } from './support/session.ts';

const OWNER = { email: 'owner@ranch.test', password: 'stable password', firstName: 'Olive', lastName: 'Owner', role: 'Staff' };

/** The sign-in page itself (server HTML, no JavaScript), as a person fills it in. */
async function submitSignIn(context: BrowserContext, server: AppServer, credentials: Credentials): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.url}/api/login`);
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  return page;
}

/**
 * [A5] in Chromium: the browser keeps the device cookie a sign-in sets and sends it with
 * the sign-in form, so its owner gets in while someone guesses at the account from the same
 * address (no trusted proxy: every request comes from 127.0.0.1). Only the sign-in page is
 * exercised, so the app is a stand-in page rather than the build.
 */
describe('[A5] sign-in throttling in the browser', () => {
  let server: AppServer;
  let browser: Browser;
  let webDir: string;

  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), 'ranch-web-'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Ranch</title><h1>Signed in</h1>');
    server = await startAppServer({ RANCH_WEB_DIR: webDir });
    browser = await launchChromium();
    const api = restClient(server, await sessionCookie(server, ADMIN));
    await api('/api/users', { method: 'POST', body: JSON.stringify(OWNER) });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (webDir) rmSync(webDir, { recursive: true, force: true });
  });

  it("[A5] the owner's browser signs in at once while its account is guessed at; a new device is told how long to wait", async () => {
    const owner = await browser.newContext();
    owner.setDefaultTimeout(10_000);
    const first = await submitSignIn(owner, server, OWNER);
    await first.waitForURL(`${server.url}/`);
    const device = (await owner.cookies()).find((cookie) => cookie.name === 'ranch_device');
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    // [A6] The address asks; its form signs out.
    await first.goto(`${server.url}/api/logout`);
    await first.getByRole('button', { name: 'Sign Out' }).click();
    await first.waitForURL(`${server.url}/`);
    expect((await owner.cookies()).map((cookie) => cookie.name)).toEqual(['ranch_device']);

    // Someone guesses, honouring Retry-After, until a guess has to wait 16 seconds.
    let retryAfter = 0;
    while (retryAfter < 16) {
      const guess = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        body: new URLSearchParams({ email: OWNER.email, password: `guess ${retryAfter}` }),
        redirect: 'manual',
      });
      expect([401, 429]).toContain(guess.status);
      if (guess.status === 429) {
        retryAfter = Number(guess.headers.get('retry-after'));
        if (retryAfter < 16) await new Promise((resume) => setTimeout(resume, retryAfter * 1000));
      }
    }

    const stranger = await browser.newContext();
    const refused = await submitSignIn(stranger, server, OWNER);
    await refused.getByText(/Too many failed sign-in attempts\. Try again in \d+ seconds\./).waitFor();
    expect((await stranger.cookies()).map((cookie) => cookie.name)).toEqual([]);

    const again = await submitSignIn(owner, server, OWNER);
    await again.waitForURL(`${server.url}/`);
    await again.getByRole('heading', { name: 'Signed in' }).waitFor();
    expect((await owner.cookies()).map((cookie) => cookie.name).sort()).toEqual(['ranch_device', 'ranch_session']);
    await stranger.close();
    await owner.close();
  });
});
