import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { launchChromium } from './support/browser.ts';
import { restClient, sessionCookie, signInThroughUi } from './support/session.ts';

type WorkerWindow = {
  __ranch: {
    doc: unknown;
    provider: { synced: boolean } | null;
    data: {
      writes: { lookups: { create(kind: string, input: { name: string }): Promise<string> } };
      db: { breeds: { toArray(): Promise<{ name: string }[]> } };
    };
  };
};

/**
 * Issue 12 step 4 (docs/web.md "The data layer in a worker"): with
 * localStorage['ranch.dataWorker'] = '1' the document, the socket and the projection run in
 * a dedicated worker; the page writes through the RPC and its live queries see the worker's
 * Dexie writes.
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

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('[O2] writes through the worker reach the server, and the server’s reach the page’s read model', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => localStorage.setItem('ranch.dataWorker', '1'));
    const page = await signInThroughUi(context, server, ADMIN);
    expect(await page.evaluate(() => (window as unknown as WorkerWindow).__ranch.doc)).toBeNull();
    expect(page.workers().length).toBeGreaterThanOrEqual(1);
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
});
