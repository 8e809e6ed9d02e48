import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { launchChromium } from './support/browser.ts';
import { addLookup, navigate } from './support/screens.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { restClient, serviceWorkerInControl, sessionCookie, signInThroughUi, type Credentials } from './support/session.ts';

const ANN = { email: 'ann@ranch.test', password: 'stable password', firstName: 'Ann', lastName: 'Lee', role: 'Staff' };
/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const BO = { email: 'bo@ranch.test', password: 'stable password', firstName: 'Bo', lastName: 'Hart', role: 'Staff' };

/**
 * Records in this origin's IndexedDB by database and table ('ranch-data/meta'), leaving out
 * y-indexeddb's record of an empty document (2 bytes): a failure names the table written.
 */
function ranchRecords(page: Page): Promise<Record<string, number>> {
  return page.evaluate(async () => {
    const counts: Record<string, number> = {};
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const stores = [...db.objectStoreNames];
      counts[name] = 0;
      if (stores.length > 0) {
        const transaction = db.transaction(stores, 'readonly');
        for (const store of stores) {
          const values = await new Promise<unknown[]>((resolve) => {
            const request = transaction.objectStore(store).getAll();
            request.onsuccess = () => resolve(request.result);
          });
          counts[`${name}/${store}`] = values.filter((value) => !(value instanceof Uint8Array && value.byteLength <= 2)).length;
        }
      }
      db.close();
    }
    return counts;
  });
}

/** The tables of this origin that hold records (ranchRecords), with their counts: [] when the device is clear. */
async function databasesWithRecords(page: Page): Promise<[string, number][]> {
  return Object.entries(await ranchRecords(page)).filter(([, count]) => count > 0);
}

/** The landing screen's sign-in, when the app itself may show something else than the Dashboard after it. */
async function signInFromLanding(page: Page, credentials: Credentials): Promise<void> {
  await page.getByRole('button', { name: 'Sign In to Continue' }).click();
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function openUserMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^User menu/ }).click();
}

/** With no signal for every thread of the page's context (phone-link.ts), then reloaded offline. */
async function goOffline(link: PhoneLink, page: Page): Promise<void> {
  await link.setOffline(page.context(), true);
  await page.reload();
}

/**
 * Issue 14, shared computers ([A11], [A12], [A13]): signing out clears the device once the
 * server has everything; unsent changes are never sent under another user's session; a
 * session the server ends signs the device out with its unsent changes kept. The data layer
 * runs in the data worker, as in every browser with workers (docs/contributing.md, "Browser
 * tests": each browser test runs once).
 */
describe('a shared computer', () => {
  let server: AppServer;
  let link: PhoneLink;
  let browser: Browser;
  let api: ReturnType<typeof restClient>;

  beforeAll(async () => {
    server = await startAppServer();
    link = await startPhoneLink(server);
    browser = await launchChromium();
    api = restClient(server, await sessionCookie(server, ADMIN));
    for (const user of [ANN, BO]) await api('/api/users', { method: 'POST', body: JSON.stringify(user) });
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
  });

  async function desk(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    return context;
  }

  const breedsOnServer = async () => (await api<{ name: string }[]>('/api/breeds')).map((breed) => breed.name);

  /** A photo on the server, as the test's Admin uploads it; its object path. */
  async function servedPhoto(): Promise<string> {
    const { uploadURL, objectPath } = await api<{ uploadURL: string; objectPath: string }>('/api/objects/upload', { method: 'POST' });
    const put = await fetch(`${server.url}${uploadURL}`, {
      method: 'PUT',
      body: PNG,
      headers: { cookie: await sessionCookie(server, ADMIN), origin: server.url, 'content-type': 'image/png' },
    });
    expect(put.status).toBe(200);
    return objectPath;
  }

  /** 200 when the browser answers `path` from its HTTP cache, 0 when it has nothing cached. */
  const fromHttpCache = (page: Page, path: string) =>
    page.evaluate(
      (url) =>
        fetch(url, { cache: 'only-if-cached', mode: 'same-origin' }).then(
          (response) => response.status,
          () => 0,
        ),
      path,
    );

  it('[A11] sign out with everything on the server: no ranch data is left in the browser', async () => {
    const context = await desk();
    const page = await signInThroughUi(context, link, ANN);
    // A served photo seen on this computer is in the browser's HTTP cache.
    const photo = await servedPhoto();
    await page.evaluate(async (url) => void (await (await fetch(url)).arrayBuffer()), photo);
    expect(await fromHttpCache(page, photo)).toBe(200);
    await navigate(page, 'Admin', 'Administration');
    await addLookup(page, 'Breeds', 'Breed', `Synced`);
    await page.getByText('All changes saved').waitFor();
    expect((await ranchRecords(page))['ranch-data/breeds']).toBeGreaterThan(0);

    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign In to Continue' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await databasesWithRecords(page)).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('ranch.user'))).toBeNull();
    expect(await fromHttpCache(page, photo)).toBe(0);
    // The session ended on the server: a reload shows the landing screen, and still no data.
    await page.reload();
    await page.getByRole('button', { name: 'Sign In to Continue' }).waitFor();
    expect(await databasesWithRecords(page)).toEqual([]);
    expect(await breedsOnServer()).toContain(`Synced`);
    await context.close();
  });

  it('[A11] a change made offline: the dialog counts it, Stay signed in keeps it, and once sent signing out loses nothing', async () => {
    const context = await desk();
    const page = await signInThroughUi(context, link, ANN);
    await serviceWorkerInControl(page);
    await page.getByText('All changes saved').waitFor();
    await goOffline(link, page);
    await navigate(page, 'Admin', 'Administration');
    await addLookup(page, 'Breeds', 'Breed', `Offline`);
    await page.getByText('1 change waiting').waitFor();

    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out?' });
    await dialog.getByText('1 change has not reached the server yet.').waitFor();
    await dialog.getByRole('button', { name: 'Stay signed in' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('1 change waiting').waitFor();

    // Asked again, and the connection comes back while the dialog is open.
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await dialog.getByRole('button', { name: 'Sign out anyway' }).waitFor();
    await link.setOffline(context, false);
    await dialog.getByText('Everything is now saved on the server.').waitFor({ timeout: 30_000 });
    expect(await breedsOnServer()).toContain(`Offline`);
    await dialog.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign In to Continue' }).waitFor();
    expect(await databasesWithRecords(page)).toEqual([]);
    await context.close();
  });

  it('[A13] [A12] a session ended on the server keeps the unsent change; another user never sends it; its author does', async () => {
    const context = await desk();
    const page = await signInThroughUi(context, link, ANN);
    await serviceWorkerInControl(page);
    await page.getByText('All changes saved').waitFor();
    await goOffline(link, page);
    await navigate(page, 'Admin', 'Administration');
    const kept = `Kept`;
    await addLookup(page, 'Breeds', 'Breed', kept);
    await page.getByText('1 change waiting').waitFor();

    // Ann's session ends on the server (signed out elsewhere, deactivated, password reset).
    const cookie = (await context.cookies(server.url)).map((c) => `${c.name}=${c.value}`).join('; ');
    expect((await fetch(`${server.url}/api/logout`, { method: 'POST', headers: { cookie, origin: server.url } })).status).toBe(204);
    await link.setOffline(context, false);
    const signedOut = Date.now();
    const notice = page.getByRole('alert').filter({ hasText: 'You are signed out.' });
    await notice
      .getByText('1 change could not be sent. It is kept on this device until Ann Lee signs in again.')
      .waitFor({ timeout: 10_000 });
    console.log(`back online → signed-out notice: ${Date.now() - signedOut} ms`);
    expect(await breedsOnServer()).not.toContain(kept);
    // Still said after a reload (a later start, signed out).
    await page.reload();
    await notice.getByText('1 change could not be sent. It is kept on this device until Ann Lee signs in again.').waitFor();

    // Bo signs in on the same browser: told, and nothing of Ann's is sent under his session.
    await signInFromLanding(page, BO);
    const held = page.getByRole('alert').filter({ hasText: 'This device holds' });
    await held.waitFor();
    expect(await held.textContent()).toBe(
      'This device holds 1 change by Ann Lee that was never sent. They are kept until Ann Lee signs in again, or you can discard them.',
    );
    expect(await page.getByRole('heading', { name: 'Dashboard' }).count()).toBe(0);
    expect(await breedsOnServer()).not.toContain(kept);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign In to Continue' }).waitFor();
    expect(await breedsOnServer()).not.toContain(kept);

    // Ann signs in again: her change goes, under her session.
    await signInFromLanding(page, ANN);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect.poll(breedsOnServer, { timeout: 30_000 }).toContain(kept);
    await page.getByText('All changes saved').waitFor();
    await context.close();
  });

  it('[A12] an open app whose cookie became another user’s (signed in elsewhere in this browser) sends nothing of the first user’s', async () => {
    const context = await desk();
    const page = await signInThroughUi(context, link, ANN);
    await serviceWorkerInControl(page);
    await page.getByText('All changes saved').waitFor();
    await goOffline(link, page);
    await navigate(page, 'Admin', 'Administration');
    const mine = `Ann only`;
    await addLookup(page, 'Breeds', 'Breed', mine);
    await page.getByText('1 change waiting').waitFor();
    // Meanwhile Bo signs in in another tab of this browser: the cookie is now his.
    const [name, value] = (await sessionCookie(server, BO)).split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    await link.setOffline(context, false);
    // The socket names Ann and is refused; the app finds Bo signed in and holds Ann's change.
    const held = page.getByRole('alert').filter({ hasText: 'This device holds 1 change by Ann Lee' });
    await held.waitFor({ timeout: 30_000 });
    expect(await breedsOnServer()).not.toContain(mine);
    await context.close();
  });

  it('[A13] [U11] a deactivated user’s device, back online, is signed out within seconds with its unsent change kept; reactivated, it is sent', async () => {
    const STELLA = {
      email: `stella@ranch.test`,
      password: 'stable password',
      firstName: 'Stella',
      lastName: 'Hand',
      role: 'Staff',
    };
    const { id } = await api<{ id: string }>('/api/users', { method: 'POST', body: JSON.stringify(STELLA) });
    // An office computer stands in for the phone: what matters is the socket, not the screen size.
    const phone = await desk();
    const page = await signInThroughUi(phone, link, STELLA);
    await serviceWorkerInControl(page);
    await page.getByText('All changes saved').waitFor();
    await goOffline(link, page);
    await navigate(page, 'Admin', 'Administration');
    const paddock = `Paddock`;
    await addLookup(page, 'Breeds', 'Breed', paddock);

    await api(`/api/users/${id}`, { method: 'PATCH', body: JSON.stringify({ isActive: false }) });
    await link.setOffline(phone, false);
    const online = Date.now();
    await page
      .getByText('1 change could not be sent. It is kept on this device until Stella Hand signs in again.')
      .waitFor({ timeout: 10_000 });
    console.log(`deactivated device back online → signed-out notice: ${Date.now() - online} ms`);
    expect(await breedsOnServer()).not.toContain(paddock);

    await api(`/api/users/${id}`, { method: 'PATCH', body: JSON.stringify({ isActive: true }) });
    await signInFromLanding(page, STELLA);
    await expect.poll(breedsOnServer, { timeout: 30_000 }).toContain(paddock);
    await phone.close();
  });

  it('[A13] [A7] a session ended while connected, nothing unsent: the device is cleared and goes to sign in within seconds', async () => {
    const context = await desk();
    const page = await signInThroughUi(context, link, BO);
    await page.getByText('Online', { exact: true }).waitFor();
    await page.getByText('All changes saved').waitFor();
    const cookie = (await context.cookies(server.url)).map((c) => `${c.name}=${c.value}`).join('; ');
    const ended = Date.now();
    await fetch(`${server.url}/api/logout`, { method: 'POST', headers: { cookie, origin: server.url } });
    await page.getByText('You are logged out. Logging in again...').waitFor({ timeout: 10_000 });
    await page.waitForURL('**/api/login');
    console.log(`session ended → sign-in page: ${Date.now() - ended} ms`);
    expect(await databasesWithRecords(page)).toEqual([]);
    await context.close();
  });
});
