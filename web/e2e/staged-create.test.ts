import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { CHROMIUM } from './support/browser.ts';
import { record } from './support/screens.ts';
import { restClient, sessionCookie, signInThroughUi } from './support/session.ts';

type HeldWindow = {
  __docHeld?: boolean;
  __releaseDoc?: () => void;
  __horsesHeld?: boolean;
  __releaseHorses?: () => void;
  __ranch?: {
    host?: string;
    data: { docLoaded: boolean; loaded: Promise<void>; projection: { idle(): Promise<void> } };
    provider: { synced: boolean };
  };
};

/**
 * Keeps a readwrite transaction on `store` of the database `dbName` open (each request's
 * success issues the next) until `window[release]()`; `window[held]` is true once it holds.
 */
const holdStore = (dbName: string, store: string, held: string, release: string) => `(() => {
  const open = indexedDB.open(${JSON.stringify(dbName)});
  open.onsuccess = () => {
    const db = open.result;
    const objects = db.transaction(${JSON.stringify(store)}, 'readwrite').objectStore(${JSON.stringify(store)});
    let holding = true;
    const spin = () => { if (holding) objects.count().onsuccess = spin; };
    spin();
    window[${JSON.stringify(held)}] = true;
    window[${JSON.stringify(release)}] = () => { holding = false; db.close(); };
  };
})();`;

/**
 * Run in the page before the app: holds y-indexeddb's `updates` of `ranch-doc`, as the data
 * worker's own load does through its whole apply on a phone. The worker's load waits for it.
 */
const HOLD_DOCUMENT = holdStore('ranch-doc', 'updates', '__docHeld', '__releaseDoc');

/**
 * Issue 12 "Writable sooner": a horse created or edited while the data worker is still
 * loading the stored document is answered at once (the page stages it in the read
 * database), not when y-indexeddb's load lets go of its store, and reaches the server once
 * the load is over.
 */
describe('a horse created or edited while the data worker loads the stored document', () => {
  let server: AppServer;
  let api: ReturnType<typeof restClient>;
  let dir: string;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    server = await startAppServer();
    api = restClient(server, await sessionCookie(server, ADMIN));
    for (const [kind, name] of [
      ['breeds', 'Quarter Horse'],
      ['colors', 'Bay'],
      ['genders', 'Mare'],
    ] as const) {
      await api(`/api/${kind}`, { method: 'POST', body: JSON.stringify({ name }) });
    }
    dir = mkdtempSync(join(tmpdir(), 'ranch-staged-'));
  });

  /**
   * The next start of the device: a fresh data worker, whose load waits for the held store;
   * on Horses once the page's data layer talks to it.
   */
  async function startHeld(): Promise<Page> {
    context = await chromium.launchPersistentContext(dir, CHROMIUM);
    await context.addInitScript(HOLD_DOCUMENT);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/horses`);
    await page.waitForFunction(() => (window as HeldWindow).__docHeld === true);
    // The data layer in the worker (the page's own would write the horse into its document);
    // main.tsx names it once the entry's steps have loaded (web/src/entry.ts).
    await page.waitForFunction(() => (window as HeldWindow).__ranch !== undefined);
    expect(await page.evaluate(() => (window as HeldWindow).__ranch?.host)).toBe('shared');
    return page;
  }

  afterAll(async () => {
    await context?.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('[O2] is answered while the load holds the document, and reaches the server after it', async () => {
    // A device that has the ranch stored (the lookups arrived through sync).
    context = await chromium.launchPersistentContext(dir, CHROMIUM);
    const first = await signInThroughUi(context, server, ADMIN);
    await first.waitForFunction(() => (window as HeldWindow).__ranch?.provider.synced === true);
    await first.evaluate(async () => {
      const data = (window as HeldWindow).__ranch!.data;
      await data.loaded;
      await data.projection.idle();
    });
    await context.close();

    const page = await startHeld();
    await page.getByRole('heading', { name: 'Horse Inventory' }).waitFor();

    await page.getByRole('button', { name: 'Add Horse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Horse' });
    await dialog.getByLabel('Name').fill('Early Bird');
    await dialog.getByLabel('Breed').selectOption({ label: 'Quarter Horse' });
    await dialog.getByLabel('Color').selectOption({ label: 'Bay' });
    await dialog.getByLabel('Gender').selectOption({ label: 'Mare' });
    // The read model's horses busy as well, as the data worker's projection keeps them during
    // a start: the create is answered once it is stored, before its row can be written.
    await page.evaluate(holdStore('ranch-data', 'horses', '__horsesHeld', '__releaseHorses'));
    await page.waitForFunction(() => (window as HeldWindow).__horsesHeld === true);
    await dialog.getByRole('button', { name: /Create Horse|Save/ }).click();
    await page.getByText('Horse created successfully').waitFor({ timeout: 5_000 });
    await page.evaluate(() => (window as HeldWindow).__releaseHorses?.());
    await page
      .getByRole('cell', { name: /Early Bird/ })
      .first()
      .waitFor();
    // Answered while the worker's load was still held: it did not wait for it.
    expect(await page.evaluate(() => (window as HeldWindow).__ranch?.data.docLoaded)).toBe(false);
    expect(await api<unknown[]>('/api/horses')).toEqual([]);

    await page.evaluate(() => (window as HeldWindow).__releaseDoc?.());
    await expect
      .poll(async () => (await api<{ name: string }[]>('/api/horses')).map((horse) => horse.name), { timeout: 30_000 })
      .toEqual(['Early Bird']);
  });

  // On the device of the test above, whose Early Bird reached the server.
  it('[O2] an edit is answered while the load holds the document, shown at once, and reaches the server after it', async () => {
    await context?.close();
    const page = await startHeld();
    await record(page, 'Early Bird').first().getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Horse' });
    await dialog.getByLabel('Name').fill('Early Riser');
    await dialog.getByRole('button', { name: 'Update Horse' }).click();
    await page.getByText('Horse updated successfully').waitFor({ timeout: 5_000 });
    await record(page, 'Early Riser').first().waitFor();
    // Answered and shown while the worker's load was still held.
    expect(await page.evaluate(() => (window as HeldWindow).__ranch?.data.docLoaded)).toBe(false);
    expect((await api<{ name: string }[]>('/api/horses')).map((horse) => horse.name)).toEqual(['Early Bird']);

    await page.evaluate(() => (window as HeldWindow).__releaseDoc?.());
    await expect
      .poll(async () => (await api<{ name: string }[]>('/api/horses')).map((horse) => horse.name), { timeout: 30_000 })
      .toEqual(['Early Riser']);
    await expect.poll(() => page.evaluate(() => (window as HeldWindow).__ranch?.data.docLoaded)).toBe(true);
    await record(page, 'Early Riser').first().waitFor();
  });
});
