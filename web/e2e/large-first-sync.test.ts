import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDevice, whenSynced, type Device } from '../../sync-server/test/support/sync-client.ts';
import { newId, writeEntity } from '../../shared/index.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { launchChromium } from './support/browser.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { navigate } from './support/screens.ts';
import { createHorseLookups, restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

const HORSES = 1500;
/** About 900 bytes a horse: the ranch's first sync is one message of over a megabyte. */
const NOTES = 'Good with children; shod in spring. '.repeat(25);

type AppWindow = {
  __ranch: {
    provider: { synced: boolean } | null;
    data: { loaded: Promise<void>; projection: { idle(): Promise<void> }; db: { horses: { count(): Promise<number> } } };
  };
};

/**
 * A first sync of over a megabyte is stored by y-indexeddb: what the device stored must load
 * on its next start, offline, or the start's reconcile would empty the tables of everything
 * the document lacks.
 */
describe('a first sync of over a megabyte', () => {
  let server: AppServer;
  let browser: Browser;
  let writer: Device | undefined;
  let link: PhoneLink;
  let api: ReturnType<typeof restClient>;

  beforeAll(async () => {
    server = await startAppServer();
    link = await startPhoneLink(server);
    browser = await launchChromium();
    const cookie = await sessionCookie(server, ADMIN);
    api = restClient(server, cookie);
    const lookups = await createHorseLookups(api, { breed: 'Arabian', color: 'Bay', gender: 'Mare' });
    writer = connectDevice(server.url, cookie, { origin: server.url });
    await whenSynced(writer);
    const doc = writer.doc;
    for (let start = 0; start < HORSES; start += 300) {
      doc.transact(() => {
        for (let i = start; i < start + 300; i++)
          writeEntity(doc, 'horses', newId(), { name: `Horse ${i}`, ...lookups, notes: `${NOTES}${i}` });
      });
    }
  }, 120_000);

  afterAll(async () => {
    writer?.destroy();
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  it('is stored on the device, and the next start offline lists every horse', async () => {
    await expect.poll(async () => (await api<unknown[]>('/api/horses')).length, { timeout: 60_000 }).toBe(HORSES);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await signInThroughUi(context, link, ADMIN);
    await serviceWorkerInControl(page);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as AppWindow).__ranch.provider?.synced === true), { timeout: 60_000 })
      .toBe(true);
    await page.evaluate(() => (window as unknown as AppWindow).__ranch.data.projection.idle());
    expect(await page.evaluate(() => (window as unknown as AppWindow).__ranch.data.db.horses.count())).toBe(HORSES);

    // No signal, and the tab closed before the next opens: the data worker that held the
    // document ends with it, so the next start has only what the device stored.
    await link.setOffline(context, true);
    await page.close();
    const next = await context.newPage();
    await next.goto(link.url);
    await next.waitForFunction(() => (window as unknown as Partial<AppWindow>).__ranch?.data !== undefined, undefined, { timeout: 30_000 });
    await next.evaluate(async () => {
      const data = (window as unknown as AppWindow).__ranch.data;
      await data.loaded;
      await data.projection.idle();
    });
    // A document that had not loaded what was stored would have emptied the table here.
    expect(await next.evaluate(() => (window as unknown as AppWindow).__ranch.data.db.horses.count())).toBe(HORSES);
    await navigate(next, 'Horses', 'Horse Inventory');
    await next.getByPlaceholder('Search horses...').fill('Horse 1499');
    await next.getByText('Horse 1499', { exact: true }).first().waitFor();
    await context.close();
  }, 180_000);
});
