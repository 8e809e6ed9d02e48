import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { launchChromium } from './support/browser.ts';
import { addLookup, navigate } from './support/screens.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

type Buckets = { keys(): Promise<string[]>; open(name: string): Promise<{ indexedDB: IDBFactory }>; delete(name: string): Promise<void> };

/**
 * How many updates `ranch-doc` holds in the default bucket (`bucket` null) or in the storage
 * bucket named `bucket`; -1 when there is no such database.
 */
function storedUpdates(page: Page, bucket: string | null): Promise<number> {
  return page.evaluate(async (bucket) => {
    const buckets = (navigator as unknown as { storageBuckets: Buckets }).storageBuckets;
    if (bucket !== null && !(await buckets.keys()).includes(bucket)) return -1;
    const factory = bucket === null ? indexedDB : (await buckets.open(bucket)).indexedDB;
    if (!(await factory.databases()).some((db) => db.name === 'ranch-doc')) return -1;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = factory.open('ranch-doc');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const count = await new Promise<number>((resolve) => {
      const request = db.transaction('updates').objectStore('updates').count();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    return count;
  }, bucket);
}

/**
 * Puts the document back where an earlier build kept it: its updates copied from the
 * `ranch-doc` bucket into `ranch-doc` of the default bucket, and the bucket deleted. Run on a
 * page of the origin that is not the app, once the data worker has let go of the bucket.
 */
function storeAsEarlierBuild(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const buckets = (navigator as unknown as { storageBuckets: Buckets }).storageBuckets;
    const open = (factory: IDBFactory) =>
      new Promise<IDBDatabase>((resolve, reject) => {
        const request = factory.open('ranch-doc');
        request.onupgradeneeded = () => {
          request.result.createObjectStore('updates', { autoIncrement: true });
          request.result.createObjectStore('custom');
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const bucket = await open((await buckets.open('ranch-doc')).indexedDB);
    const updates = await new Promise<unknown[]>((resolve) => {
      const request = bucket.transaction('updates').objectStore('updates').getAll();
      request.onsuccess = () => resolve(request.result);
    });
    bucket.close();
    const legacy = await open(indexedDB);
    await new Promise<void>((resolve, reject) => {
      const transaction = legacy.transaction('updates', 'readwrite');
      for (const update of updates) transaction.objectStore('updates').add(update);
      transaction.oncomplete = () => resolve();
      transaction.onabort = () => reject(transaction.error);
    });
    legacy.close();
    await buckets.delete('ranch-doc');
    return updates.length;
  });
}

/**
 * The document's database in a storage bucket of its own (docs/web.md "The document in a
 * storage bucket of its own"): where it is kept, and a device whose document an earlier
 * build kept in the default bucket, with a change the server has not had, moves it there
 * at its next start and loses nothing.
 */
describe('the stored document in its own storage bucket', () => {
  let server: AppServer;
  let browser: Browser;
  let link: PhoneLink;
  let api: ReturnType<typeof restClient>;

  beforeAll(async () => {
    server = await startAppServer();
    link = await startPhoneLink(server);
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
    await api('/api/breeds', { method: 'POST', body: JSON.stringify({ name: 'Morgan' }) });
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  it('keeps the document in its bucket, and moves one an earlier build kept, with its unsent change', async () => {
    const context = await browser.newContext();
    const page = await signInThroughUi(context, link, ADMIN);
    await serviceWorkerInControl(page);
    await page.getByText('All changes saved').waitFor();
    await expect.poll(() => storedUpdates(page, 'ranch-doc')).toBeGreaterThan(0);
    expect(await storedUpdates(page, null)).toBe(-1);

    // A breed added with no signal: on this device only, in its stored document.
    await link.setOffline(context, true);
    await page.reload();
    await navigate(page, 'Admin', 'Administration');
    await addLookup(page, 'Breeds', 'Breed', 'Offline Breed');
    await page.getByText('1 change waiting').waitFor();

    // The app left for a page of its origin that is not the app (its data worker ends with its
    // last page; /api is not the service worker's), the proxy still cut so nothing is sent;
    // the document put back where an earlier build kept it.
    await context.route('**/api/not-the-app', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Not the app</title>' }));
    await context.setOffline(false);
    await page.goto(`${link.url}/api/not-the-app`);
    await expect.poll(() => storeAsEarlierBuild(page).catch(() => 0), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await storedUpdates(page, 'ranch-doc')).toBe(-1);
    await context.setOffline(true);

    // The next start moves it into the bucket before it loads, and the change is sent.
    await page.goto(`${link.url}/horses`);
    await page.getByText('1 change waiting').waitFor();
    await expect.poll(() => storedUpdates(page, 'ranch-doc')).toBeGreaterThan(0);
    expect(await storedUpdates(page, null)).toBe(0);
    await link.setOffline(context, false);
    await expect
      .poll(async () => (await api<{ name: string }[]>('/api/breeds')).map((breed) => breed.name), { timeout: 30_000 })
      .toContain('Offline Breed');
    await context.close();
  });
});
