import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { fillHorse, navigate, record, toast } from './support/screens.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

const HORSE = { breed: 'Arabian', color: 'Grey', gender: 'Stallion' };

/**
 * A new version deployed while the app is open in two tabs: both are told, nothing changes
 * until the user taps Reload, and a change not yet on the server survives the switch.
 */
describe('a new version while the app is open', () => {
  let server: AppServer;
  let link: PhoneLink;
  let browser: Browser;
  let webDir: string;
  let api: ReturnType<typeof restClient>;

  beforeAll(async () => {
    // The server serves a copy of the build, so the test can deploy a "new" one over it.
    webDir = await mkdtemp(join(tmpdir(), 'ranch-web-'));
    await cp(resolve(import.meta.dirname, '../../dist/web'), webDir, { recursive: true });
    server = await startAppServer({ RANCH_WEB_DIR: webDir });
    link = await startPhoneLink(server);
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
    for (const [kind, name] of [
      ['breeds', HORSE.breed],
      ['colors', HORSE.color],
      ['genders', HORSE.gender],
    ] as const) {
      await api(`/api/${kind}`, { method: 'POST', body: JSON.stringify({ name }) });
    }
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
    if (webDir) await rm(webDir, { recursive: true, force: true });
  });

  const checkForUpdate = (page: Page) =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });

  it('[G7] prompts in every tab, reloads only on Reload, and keeps unsent changes', async () => {
    const context = await browser.newContext();
    const first = await signInThroughUi(context, link, ADMIN);
    await serviceWorkerInControl(first);
    await navigate(first, 'Horses', 'Horse Inventory');
    const second = await context.newPage();
    await second.goto(`${link.url}/horses`);
    await second.getByRole('heading', { name: 'Horse Inventory' }).waitFor();
    await second.waitForFunction(() => navigator.serviceWorker.controller !== null);
    // biome-ignore lint/performance/useDomNodeTextContent: what the page shows, hidden elements left out
    await expect.poll(() => first.evaluate(() => document.body.innerText.includes('All changes saved'))).toBe(true);

    // A mark that a reload would wipe: nothing reloads until the user says so.
    const mark = (page: Page) => page.evaluate(() => Object.assign(window, { ranchTestMark: true }));
    const marked = (page: Page) => page.evaluate(() => 'ranchTestMark' in window);
    await mark(first);
    await mark(second);

    // Deploy: the worker script changes (as it does with every build's precache list).
    await appendFile(join(webDir, 'sw.js'), '\n// the next version\n');
    await checkForUpdate(first);
    const prompt = (page: Page) => page.getByRole('region', { name: 'App update' });
    await prompt(first).getByText('A new version is available').waitFor({ timeout: 30_000 });
    await prompt(second).getByText('A new version is available').waitFor({ timeout: 30_000 });
    const controllerBefore = await first.evaluate(() => navigator.serviceWorker.controller?.state);
    expect(controllerBefore).toBe('activated');

    // No signal, and a horse added that the server has not seen.
    await link.setOffline(context, true);
    await first.evaluate(() => window.__ranch?.provider?.disconnect());
    await second.evaluate(() => window.__ranch?.provider?.disconnect());
    await first.getByRole('button', { name: 'Add Horse' }).click();
    const dialog = first.getByRole('dialog', { name: 'Add New Horse' });
    await fillHorse(dialog, { name: 'Before Update', ...HORSE });
    await dialog.getByRole('button', { name: 'Create Horse' }).click();
    await toast(first, 'Horse created successfully');
    await first.getByText('1 change waiting').waitFor();

    expect(await marked(first)).toBe(true);
    expect(await marked(second)).toBe(true);

    // The user accepts in the first tab: it reloads into the new version, offline.
    const reloaded = first.waitForEvent('load');
    await prompt(first).getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await first.getByRole('heading', { name: 'Horse Inventory' }).waitFor();
    await record(first, 'Before Update').first().waitFor();
    await first.getByText('1 change waiting').waitFor();
    expect(await prompt(first).count()).toBe(0);
    // The other tab is told, not reloaded under its user.
    await prompt(second).getByText('A new version was started in another tab').waitFor();
    expect(await marked(second)).toBe(true);
    expect(await marked(first)).toBe(false);

    await link.setOffline(context, false);
    await expect
      .poll(async () => (await api<{ name: string }[]>('/api/horses')).map((horse) => horse.name), { timeout: 30_000 })
      .toContain('Before Update');
    await first.getByText('All changes saved').waitFor({ timeout: 30_000 });
  });
});
