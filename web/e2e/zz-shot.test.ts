import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/browser.ts';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { restClient, sessionCookie, signInThroughUi } from './support/session.ts';

describe('shot', () => {
  let server: AppServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    const api = restClient(server, await sessionCookie(server, ADMIN));
    const ids: Record<string, string> = {};
    for (const [kind, name] of [['breeds', 'Quarter Horse'], ['colors', 'Bay'], ['genders', 'Mare'], ['statuses', 'For Sale']] as const) {
      await api(`/api/${kind}`, { method: 'POST', body: JSON.stringify({ name }) });
      ids[kind] = (await api<{ id: string; name: string }[]>(`/api/${kind}`)).find((i) => i.name === name)!.id;
    }
    for (let i = 0; i < 80; i++)
      await api('/api/horses', { method: 'POST', body: JSON.stringify({ name: `Horse ${i}`, breedId: ids.breeds, colorId: ids.colors, genderId: ids.genders, statusId: ids.statuses, priceUsd: '1000' }) });
    await api('/api/buyers', { method: 'POST', body: JSON.stringify({ firstName: 'Bo', lastName: 'Buyer' }) });
  });
  afterAll(async () => { await browser?.close(); await server?.stop(); });
  for (const [name, viewport, mobile] of [['desk', { width: 1280, height: 800 }, false], ['phone', { width: 390, height: 844 }, true]] as const) {
    it(name, async () => {
      const context = await browser.newContext({ viewport, isMobile: mobile, hasTouch: mobile });
      const page = await signInThroughUi(context, server, ADMIN);
      await page.goto(`${server.url}/sales`);
      await page.getByRole('button', { name: 'Create Sale' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create New Sale' });
      await dialog.getByRole('button', { name: 'Show horses' }).click();
      await dialog.getByRole('option').first().waitFor();
      await page.screenshot({ path: `/tmp/shot-${name}-open.png` });
      await dialog.getByLabel(/^Horse/).fill('7');
      await page.screenshot({ path: `/tmp/shot-${name}-typed.png` });
      await dialog.getByRole('option', { name: 'Horse 17' }).click();
      await page.screenshot({ path: `/tmp/shot-${name}-chosen.png` });
      await dialog.getByRole('button', { name: 'Create Sale' }).click();
      await page.screenshot({ path: `/tmp/shot-${name}-errors.png` });
      await context.close();
    });
  }
});
