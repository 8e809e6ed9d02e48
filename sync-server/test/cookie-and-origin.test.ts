import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from './support/client.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';

const signInWith = (server: TestServer, headers: Record<string, string>) =>
  fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ email: ADMIN.email, password: ADMIN.password }),
    redirect: 'manual',
  });

describe('[A8] the session cookie is Secure only when the request came over HTTPS through a trusted proxy', () => {
  let direct: TestServer;
  let proxied: TestServer;

  beforeAll(async () => {
    direct = await startTestServer('pglite');
    proxied = await startTestServer('pglite', { trustProxy: true });
  });
  afterAll(async () => {
    await direct?.destroy();
    await proxied?.destroy();
  });

  it('anyone claiming HTTPS without a trusted proxy gets the plain cookie', async () => {
    const response = await signInWith(direct, { 'x-forwarded-proto': 'https' });
    expect(response.status).toBe(303);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^ranch_session=/);
    expect(cookie).not.toMatch(/;\s*Secure/i);
  });

  it('behind a trusted proxy over HTTPS: __Host-ranch_session, Secure, path /, and it signs the requests in', async () => {
    const response = await signInWith(proxied, { 'x-forwarded-proto': 'https' });
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^__Host-ranch_session=/);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
    expect(cookie).not.toMatch(/;\s*Domain=/i);
    const signedIn = client(proxied.url, cookie.split(';')[0] ?? '');
    expect((await signedIn.request('/api/auth/user')).status).toBe(200);
    // Over plain HTTP through the same proxy: the plain cookie.
    const plain = await signInWith(proxied, { 'x-forwarded-proto': 'http' });
    expect(plain.headers.get('set-cookie') ?? '').toMatch(/^ranch_session=/);
  });
});

describe('[A10] a state-changing request without Origin', () => {
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer('pglite');
    const response = await signInWith(server, {});
    cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  });
  afterAll(() => server?.destroy());

  const createBreed = (headers: Record<string, string>, name: string) =>
    client(server.url, cookie).request('/api/breeds', { method: 'POST', json: { name }, headers });

  it('is refused when the browser says it came from another site', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const response = await createBreed({ 'sec-fetch-site': site }, `From ${site}`);
      expect(response.status, site).toBe(403);
    }
    const breeds = (await (await client(server.url, cookie).request('/api/breeds')).json()) as { name: string }[];
    expect(breeds.map((breed) => breed.name)).toEqual([]);
  });

  it('is taken from this origin, and from scripts that send neither header', async () => {
    expect((await createBreed({ 'sec-fetch-site': 'same-origin' }, 'Same origin')).status).toBe(201);
    expect((await createBreed({}, 'A script')).status).toBe(201);
  });
});
