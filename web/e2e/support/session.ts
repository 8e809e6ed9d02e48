import type { BrowserContext, Page } from 'playwright-core';
import type { AppServer } from './app-server.ts';

export type Credentials = { email: string; password: string };

/** Signs in with the form and returns the session cookie, for REST calls made by the test. */
export async function sessionCookie(server: AppServer, credentials: Credentials): Promise<string> {
  const login = await fetch(`${server.url}/api/login`, { method: 'POST', body: new URLSearchParams(credentials), redirect: 'manual' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (!cookie) throw new Error(`Sign-in of ${credentials.email} failed: ${login.status}`);
  return cookie;
}

/** JSON REST calls as the signed-in test user (Origin set: state-changing calls check it). */
export function restClient(server: AppServer, cookie: string) {
  return async function api<T = unknown>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { cookie, origin: server.url, 'content-type': 'application/json', ...init.headers },
    });
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
}

/** The three lookups a horse needs, created through REST: their ids as a horse's fields take them. */
export async function createHorseLookups(
  api: ReturnType<typeof restClient>,
  names: { breed: string; color: string; gender: string },
): Promise<{ breedId: string; colorId: string; genderId: string }> {
  const create = async (kind: string, name: string) =>
    (await api<{ id: string }>(`/api/${kind}`, { method: 'POST', body: JSON.stringify({ name }) })).id;
  return {
    breedId: await create('breeds', names.breed),
    colorId: await create('colors', names.color),
    genderId: await create('genders', names.gender),
  };
}

/** Signs in through the landing screen and the sign-in page, as a person would. */
export async function signInThroughUi(context: BrowserContext, server: Pick<AppServer, 'url'>, credentials: Credentials): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Sign In to Continue' }).click();
  await signInOnLoginPage(page, credentials);
  return page;
}

/** On the server's sign-in page: types the credentials, signs in and waits for the Dashboard. */
export async function signInOnLoginPage(page: Page, credentials: Credentials): Promise<void> {
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

/**
 * Waits until the service worker controls the page, so it can reload with no signal. The
 * first worker claims open pages when it activates, and a page that missed that claim asks
 * for one (lib/register-sw.ts), so no reload is needed.
 */
export async function serviceWorkerInControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}
