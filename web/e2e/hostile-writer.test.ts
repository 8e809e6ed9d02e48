import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { connectDevice, whenSynced, type Device } from '../../sync-server/test/support/sync-client.ts';
import { collectionMap, newId } from '../../shared/index.ts';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { fillHorse, navigate, record, toast } from './support/screens.ts';
import { createHorseLookups, restClient, sessionCookie, signInThroughUi } from './support/session.ts';

const HORSE = { breed: 'Shire', color: 'Black', gender: 'Mare' };

/**
 * The document layout is a public contract: a stock y-websocket client signed in as a user
 * writes every malformed shape it can (docs/sync-rules.md). The app open in Chromium keeps
 * listing the right horses and keeps taking its user's edits, and a device that signs in
 * afterwards lists the same.
 */
describe('a stock client writing malformed shapes', () => {
  let server: AppServer;
  let browser: Browser;
  let cookie: string;
  let hostile: Device | undefined;
  let lookups: Awaited<ReturnType<typeof createHorseLookups>>;
  let goliath: string;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    cookie = await sessionCookie(server, ADMIN);
    const api = restClient(server, cookie);
    lookups = await createHorseLookups(api, HORSE);
    goliath = (await api<{ id: string }>('/api/horses', { method: 'POST', body: JSON.stringify({ name: 'Goliath', ...lookups }) })).id;
  });

  afterAll(async () => {
    hostile?.destroy();
    await browser?.close();
    await server?.stop();
  });

  /** The horse names the Horses screen lists, sorted. */
  async function listedHorses(page: Page): Promise<string[]> {
    const names = await page.locator('tbody tr td:first-child .font-semibold').allInnerTexts();
    return names.map((name) => name.trim()).sort();
  }

  it("[O8] leaves every device's lists working and correct", async () => {
    const desk = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await signInThroughUi(desk, server, ADMIN);
    await navigate(page, 'Horses', 'Horse Inventory');
    await record(page, 'Goliath').waitFor();

    // Names the layout has no place for are refused before they are applied (4400): nothing of them is kept.
    const refused = connectDevice(server.url, cookie, { origin: server.url });
    const closes: number[] = [];
    refused.provider.on('connection-close', (event) => event && closes.push(event.code));
    await whenSynced(refused);
    refused.doc.transact(() => {
      collectionMap(refused.doc, 'horses').set('not-a-uuid', new Y.Map() as never);
      refused.doc.getText('junk').insert(0, 'x'.repeat(10_000));
    });
    await expect.poll(() => closes[0], { timeout: 20_000 }).toBe(4400);
    refused.destroy();

    hostile = connectDevice(server.url, cookie, { origin: server.url });
    await whenSynced(hostile);
    const doc = hostile.doc;
    const horses = collectionMap(doc, 'horses');
    const horseMap = (fields: Record<string, unknown>) => {
      const map = new Y.Map<unknown>();
      for (const [field, value] of Object.entries(fields)) map.set(field, value);
      return map as never;
    };
    doc.transact(() => {
      collectionMap(doc, 'owners').set(newId(), 'a string' as never);
      horses.set(newId(), horseMap({ name: 'No Id', ...lookups }));
      horses.set(newId(), new Y.Text('a text where a horse belongs') as never);
      horses.set(newId(), horseMap({ id: goliath, name: 'Impostor', ...lookups }));
      horses.set(newId(), horseMap({ name: 'Nameless', breedId: 'nope' }));
    });
    // Each malformed shape has reached the server and been put right there: the fixable ones listed.
    const api = restClient(server, cookie);
    await expect
      .poll(async () => (await api<{ name: string }[]>('/api/horses')).map((horse) => horse.name).sort(), { timeout: 20_000 })
      .toEqual(['Goliath', 'Impostor', 'No Id']);
    await expect.poll(() => listedHorses(page), { timeout: 20_000 }).toEqual(['Goliath', 'Impostor', 'No Id']);

    // The lists still take this person's own edits.
    await page.getByRole('button', { name: 'Add Horse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Horse' });
    await fillHorse(dialog, { name: 'After The Storm', ...HORSE });
    await dialog.getByRole('button', { name: 'Create Horse' }).click();
    await toast(page, 'Horse created successfully');
    await expect.poll(() => listedHorses(page), { timeout: 20_000 }).toEqual(['After The Storm', 'Goliath', 'Impostor', 'No Id']);

    // A device that signs in afterwards lists the same.
    const phone = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const second = await signInThroughUi(phone, server, ADMIN);
    await navigate(second, 'Horses', 'Horse Inventory');
    await expect.poll(() => listedHorses(second), { timeout: 20_000 }).toEqual(['After The Storm', 'Goliath', 'Impostor', 'No Id']);
    await desk.close();
    await phone.close();
  });
});
