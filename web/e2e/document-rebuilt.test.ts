import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../sync-server/test/support/databases.ts';
import { spawnServer, type ServerProcess } from '../../sync-server/test/support/server-process.ts';
import { ADMIN, type AppServer } from './support/app-server.ts';
import { launchChromium } from './support/browser.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { createHorseLookups, restClient, serviceWorkerInControl, sessionCookie, signInThroughUi } from './support/session.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** `npm run rebuild-document` on the stopped server's database. */
function rebuildCommand(database: TestDatabase): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  if ('url' in database.options) env.DATABASE_URL = database.options.url;
  else env.RANCH_DATA_DIR = database.options.dataDir ?? '';
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'sync-server/src/maintenance/cli.ts'],
      { cwd: ROOT, env },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

/**
 * [Y10] A phone holds a horse it added with no signal while the operator rebuilds the
 * document: when the signal returns the app sets its old document aside, reloads, takes the
 * rebuilt one and sends the horse, which reaches the server (docs/sync-rules.md "Document epochs").
 */
describe('a document rebuilt while a phone holds unsent work', () => {
  let database: TestDatabase;
  let process_: ServerProcess;
  let server: AppServer;
  let browser: Browser;
  let link: PhoneLink;
  const env = { RANCH_ADMIN_EMAIL: ADMIN.email, RANCH_ADMIN_PASSWORD: ADMIN.password };

  beforeAll(async () => {
    database = await createTestDatabase(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    process_ = await spawnServer(database, env);
    server = { url: process_.url, database, stop: async () => {} };
    link = await startPhoneLink(server);
    browser = await launchChromium();
    const api = restClient(server, await sessionCookie(server, ADMIN));
    await createHorseLookups(api, { breed: 'Quarter Horse', color: 'Bay', gender: 'Mare' });
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await process_?.kill('SIGTERM');
    await database?.drop();
  });

  it('[Y10] keeps the horse added offline and takes the rebuilt document', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await signInThroughUi(phone, link, ADMIN);
    await serviceWorkerInControl(page);
    await page.getByRole('navigation', { name: 'Quick navigation' }).getByRole('link', { name: 'Horses' }).click();
    await page.getByRole('heading', { name: 'Horse Inventory' }).waitFor();
    await page.getByRole('button', { name: 'Add Horse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Horse' });
    await expect.poll(() => dialog.getByLabel('Breed').locator('option', { hasText: 'Quarter Horse' }).count()).toBe(1);

    await link.setOffline(phone, true);
    await dialog.getByLabel('Name').fill('Paddock Ghost');
    await dialog.getByLabel('Breed').selectOption({ label: 'Quarter Horse' });
    await dialog.getByLabel('Color').selectOption({ label: 'Bay' });
    await dialog.getByLabel('Gender').selectOption({ label: 'Mare' });
    await dialog.getByRole('button', { name: /Create Horse|Save/ }).click();
    await page.getByText('Horse created successfully').waitFor();

    // The operator stops the server, rebuilds the document and starts it again, at the same address.
    const { port } = new URL(server.url);
    await process_.kill('SIGTERM');
    const rebuilt = await rebuildCommand(database);
    expect(rebuilt.code, rebuilt.output).toBe(0);
    process_ = await spawnServer(database, { ...env, PORT: port! });
    const api = restClient(server, await sessionCookie(server, ADMIN));
    const names = async () => (await api<{ name: string }[]>('/api/horses')).map((horse) => horse.name);
    expect(await names()).toEqual([]);

    // Signal back: the app sees the new epoch, keeps the horse, reloads and sends it.
    await page.evaluate(() => Reflect.set(window, '__beforeRebuild', true));
    await link.setOffline(phone, false);
    await expect.poll(() => page.evaluate(() => Reflect.get(window, '__beforeRebuild') ?? false), { timeout: 30_000 }).toBe(false);
    await expect.poll(names, { timeout: 30_000 }).toEqual(['Paddock Ghost']);
    await page.locator('li[data-row]').filter({ hasText: 'Paddock Ghost' }).waitFor();
    await phone.close();
  });
});
