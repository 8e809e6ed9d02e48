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
  __ranch?: {
    host?: string;
    data: {
      docLoaded: boolean;
      loaded: Promise<void>;
      projection: { idle(): Promise<void> };
      db: { outbox: { count(): Promise<number> } };
    };
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
 * [O2] A horse created or edited while the data worker is still loading the stored document
 * goes to the device's outbox at once and is applied once the load is over: a tab closed
 * before then loses nothing, and the next start sends it (docs/web.md "The device outbox").
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
    dir = mkdtempSync(join(tmpdir(), 'ranch-write-during-load-'));
  });

  /**
   * The next start of the device (`held`: a fresh data worker, whose load waits for the held
   * store); on Horses once the page's data layer talks to it.
   */
  async function start({ held }: { held: boolean }): Promise<Page> {
    context = await chromium.launchPersistentContext(dir, CHROMIUM);
    if (held) await context.addInitScript(HOLD_DOCUMENT);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/horses`);
    if (held) await page.waitForFunction(() => (window as HeldWindow).__docHeld === true);
    // main.tsx names the data layer once the entry's steps have loaded (web/src/entry.ts).
    await page.waitForFunction(() => (window as HeldWindow).__ranch !== undefined);
    expect(await page.evaluate(() => (window as HeldWindow).__ranch?.host)).toBe('shared');
    return page;
  }

  const serverNames = async () => (await api<{ name: string }[]>('/api/horses')).map((horse) => horse.name);

  afterAll(async () => {
    await context?.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('[O2] a create is kept on the device while the load holds the document, and the next start sends it', async () => {
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

    const page = await start({ held: true });
    await page.getByRole('heading', { name: 'Horse Inventory' }).waitFor();
    await page.getByRole('button', { name: 'Add Horse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Horse' });
    await dialog.getByLabel('Name').fill('Early Bird');
    await dialog.getByLabel('Breed').selectOption({ label: 'Quarter Horse' });
    await dialog.getByLabel('Color').selectOption({ label: 'Bay' });
    await dialog.getByLabel('Gender').selectOption({ label: 'Mare' });
    await dialog.getByRole('button', { name: /Create Horse|Save/ }).click();
    // In the outbox while the load still holds the document.
    await expect.poll(() => page.evaluate(() => (window as HeldWindow).__ranch!.data.db.outbox.count())).toBe(1);
    expect(await page.evaluate(() => (window as HeldWindow).__ranch?.data.docLoaded)).toBe(false);
    expect(await serverNames()).toEqual([]);

    // The tab goes before the load is over; the next start applies and sends the horse.
    await context.close();
    const next = await start({ held: false });
    await expect.poll(serverNames, { timeout: 30_000 }).toEqual(['Early Bird']);
    await record(next, 'Early Bird').first().waitFor();
    expect(await next.evaluate(() => (window as HeldWindow).__ranch!.data.db.outbox.count())).toBe(0);
  });

  // On the device of the test above, whose Early Bird reached the server.
  it('[O2] an edit made while the load holds the document is saved once the load lets go, and reaches the server', async () => {
    await context?.close();
    const page = await start({ held: true });
    await record(page, 'Early Bird').first().getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Horse' });
    await dialog.getByLabel('Name').fill('Early Riser');
    await dialog.getByRole('button', { name: 'Update Horse' }).click();
    await expect.poll(() => page.evaluate(() => (window as HeldWindow).__ranch!.data.db.outbox.count())).toBe(1);
    expect(await page.evaluate(() => (window as HeldWindow).__ranch?.data.docLoaded)).toBe(false);

    await page.evaluate(() => (window as HeldWindow).__releaseDoc?.());
    await page.getByText('Horse updated successfully').waitFor({ timeout: 30_000 });
    await expect.poll(serverNames, { timeout: 30_000 }).toEqual(['Early Riser']);
    await record(page, 'Early Riser').first().waitFor();
  });
});
