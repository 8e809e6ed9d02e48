import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { launchChromium } from './support/browser.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

type WorkerWindow = {
  __ranch: {
    host: string;
    provider: { synced: boolean } | null;
    data: {
      hostId(): Promise<string>;
      writes: { lookups: { create(kind: string, input: { name: string }): Promise<string> } };
      db: { breeds: { toArray(): Promise<{ name: string }[]> } };
    };
  };
};

/**
 * Issue 12 (docs/web.md "The data layer in a worker"): the document, the socket and the
 * projection run in a worker; the page writes through the RPC and its live queries see the
 * worker's Dexie writes. The tabs of one device share one worker: the SharedWorker, or
 * where there is none the worker of the tab elected by Web Locks.
 */
describe('the data layer in a worker', () => {
  let server: AppServer;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
  });

  /** A browser context (its app keeps its data in the worker, as every browser with workers does). */
  function workerContext(options: Parameters<Browser['newContext']>[0]) {
    return browser.newContext(options);
  }

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('[O2] writes through the worker reach the server, and the server’s reach the page’s read model', async () => {
    const context = await workerContext({ viewport: { width: 1280, height: 800 } });
    const page = await signInThroughUi(context, server, ADMIN);
    expect(await page.evaluate(() => (window as unknown as WorkerWindow).__ranch.host)).toBe('shared');
    await page.getByText('Online', { exact: true }).waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as WorkerWindow).__ranch.provider?.synced), { timeout: 30_000 })
      .toBe(true);

    await page.evaluate(() => (window as unknown as WorkerWindow).__ranch.data.writes.lookups.create('breeds', { name: 'Worker Breed' }));
    await expect
      .poll(async () => (await api<{ name: string }[]>('/api/breeds')).map((breed) => breed.name), { timeout: 30_000 })
      .toContain('Worker Breed');
    await page.getByText('All changes saved').waitFor();

    await api('/api/breeds', { method: 'POST', body: JSON.stringify({ name: 'Office Breed' }) });
    await expect
      .poll(
        async () => (await page.evaluate(() => (window as unknown as WorkerWindow).__ranch.data.db.breeds.toArray())).map((b) => b.name),
        {
          timeout: 30_000,
        },
      )
      .toContain('Office Breed');
    // A refusal comes back as a rejection with the repository's message.
    const refused = await page.evaluate(() =>
      (window as unknown as WorkerWindow).__ranch.data.writes.lookups
        .create('breeds', { name: ' ' })
        .catch((error: Error) => `${error.name}: ${error.message}`),
    );
    expect(refused).toBe('ValidationError: Name is required');
    await context.close();
  });

  /** The names of the breeds in this tab's read model. */
  const breedsIn = async (page: Page) =>
    (await page.evaluate(() => (window as unknown as WorkerWindow).__ranch.data.db.breeds.toArray())).map((breed) => breed.name);
  const hostOf = (page: Page) => page.evaluate(() => (window as unknown as WorkerWindow).__ranch.data.hostId());
  /** The page's dedicated workers but the locale's short-lived one (lib/warm-icu.ts). */
  const dataWorkers = (page: Page) => page.workers().filter((worker) => !worker.url().includes('warm-icu'));
  const createBreed = (page: Page, name: string) =>
    page.evaluate((breed) => (window as unknown as WorkerWindow).__ranch.data.writes.lookups.create('breeds', { name: breed }), name);

  it('a device with nobody signed in does not load the data worker until someone signs in; then it syncs', async () => {
    const context = await workerContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const workerScripts: string[] = [];
    page.on('request', (request) => {
      if (/\/(shared-)?worker-[\w-]+\.js$/.test(new URL(request.url()).pathname)) workerScripts.push(request.url());
    });
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Sign In to Continue' }).waitFor();
    await serviceWorkerInControl(page);
    // Past the 1.5 s after which a screen without a list lets the document load (doc-load-gate.ts):
    // the last thing the page would say to a host before anyone signs in.
    await page.waitForTimeout(2_000);
    expect(workerScripts).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as WorkerWindow).__ranch.host)).toBe('shared');

    await page.getByRole('button', { name: 'Sign In to Continue' }).click();
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect.poll(() => workerScripts.length).toBeGreaterThan(0);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as WorkerWindow).__ranch.provider?.synced), { timeout: 30_000 })
      .toBe(true);
    await page.getByText('Online', { exact: true }).waitFor();

    await context.close();
  });

  it('[O2] two tabs share one data host (a SharedWorker): one document, one socket, and a write in one shows in the other', async () => {
    const context = await workerContext({ viewport: { width: 1280, height: 800 } });
    const first = await signInThroughUi(context, server, ADMIN);
    const second = await context.newPage();
    await second.goto(`${server.url}/admin`);
    await second.getByText('Online', { exact: true }).waitFor();
    expect(await second.evaluate(() => (window as unknown as WorkerWindow).__ranch.host)).toBe('shared');
    expect(await hostOf(second)).toBe(await hostOf(first));

    await createBreed(first, 'Shared Tab Breed');
    await expect.poll(() => breedsIn(second), { timeout: 30_000 }).toContain('Shared Tab Breed');
    await expect
      .poll(async () => (await api<{ name: string }[]>('/api/breeds')).map((breed) => breed.name), { timeout: 30_000 })
      .toContain('Shared Tab Breed');
    await context.close();
  });

  it('[O2] without SharedWorker (Chrome for Android): the tabs elect one host, and when its tab closes another takes over and goes on writing', async () => {
    const context = await workerContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await context.addInitScript(() => {
      delete (globalThis as { SharedWorker?: unknown }).SharedWorker;
    });
    const first = await signInThroughUi(context, server, ADMIN);
    const second = await context.newPage();
    await second.goto(`${server.url}/admin`);
    await second.getByText('Online', { exact: true }).waitFor();
    expect(await first.evaluate(() => (window as unknown as WorkerWindow).__ranch.host)).toBe('elected');
    const firstHost = await hostOf(first);
    expect(await hostOf(second)).toBe(firstHost);
    expect(dataWorkers(first)).toHaveLength(1);
    expect(dataWorkers(second)).toHaveLength(0);

    await first.close();
    await expect.poll(() => hostOf(second).catch(() => firstHost), { timeout: 30_000 }).not.toBe(firstHost);
    expect(dataWorkers(second)).toHaveLength(1);
    await createBreed(second, 'Elected Tab Breed');
    await expect
      .poll(async () => (await api<{ name: string }[]>('/api/breeds')).map((breed) => breed.name), { timeout: 30_000 })
      .toContain('Elected Tab Breed');
    await expect.poll(() => breedsIn(second), { timeout: 30_000 }).toContain('Elected Tab Breed');
    await context.close();
  });

  it('[V7] a tab that clears the device makes the others reload onto a fresh data host', async () => {
    const context = await workerContext({ viewport: { width: 1280, height: 800 } });
    const first = await signInThroughUi(context, server, ADMIN);
    const second = await context.newPage();
    await second.goto(`${server.url}/horses`);
    await second.getByText('Online', { exact: true }).waitFor();
    const shared = await hostOf(second);
    expect(await hostOf(first)).toBe(shared);

    await first.goto(`${server.url}/settings`);
    await first.getByRole('button', { name: 'Clear Local Data' }).click();
    const reloaded = second.waitForEvent('load');
    await first.getByRole('dialog').getByRole('button', { name: 'Clear Local Data' }).click();
    await first.getByText('All local data has been cleared. Please refresh the page.').waitFor();
    await reloaded;
    await second.getByText('Online', { exact: true }).waitFor();
    await expect.poll(() => hostOf(second).catch(() => shared), { timeout: 30_000 }).not.toBe(shared);
    await context.close();
  });
});
