import { request as httpRequest } from 'node:http';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from './support/client.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';

const HTTPS = { 'x-forwarded-proto': 'https' };

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
    expect((await signedIn.request('/api/auth/user', { headers: HTTPS })).status).toBe(200);
    // Over plain HTTP through the same proxy: the plain cookie.
    const plain = await signInWith(proxied, { 'x-forwarded-proto': 'http' });
    expect(plain.headers.get('set-cookie') ?? '').toMatch(/^ranch_session=/);
  });
});

describe('[A8] over HTTPS only the __Host- cookie signs in; over plain HTTP only the plain one (N6)', () => {
  let proxied: TestServer;
  let token: string;

  beforeAll(async () => {
    proxied = await startTestServer('pglite', { trustProxy: true });
    const cookie = (await signInWith(proxied, HTTPS)).headers.get('set-cookie') ?? '';
    token = /^__Host-ranch_session=([^;]+)/.exec(cookie)?.[1] ?? '';
    expect(token).not.toBe('');
  });
  afterAll(() => proxied?.destroy());

  const user = (cookie: string, headers: Record<string, string> = {}) => client(proxied.url, cookie).request('/api/auth/user', { headers });

  it('a plain ranch_session (which a sibling subdomain or a plain-HTTP answer could set) is not read over HTTPS', async () => {
    expect((await user(`__Host-ranch_session=${token}`, HTTPS)).status).toBe(200);
    expect((await user(`ranch_session=${token}`, HTTPS)).status).toBe(401);
    // Both sent: the __Host- one is the session.
    expect((await user(`ranch_session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; __Host-ranch_session=${token}`, HTTPS)).status).toBe(200);
    // Over plain HTTP the browser never sends a Secure cookie; a __Host- one there is not read.
    expect((await user(`__Host-ranch_session=${token}`)).status).toBe(401);
  });

  it('signing out over HTTPS expires the __Host- cookie (and a plain one sent along)', async () => {
    const out = await client(proxied.url, `ranch_session=x; __Host-ranch_session=${token}`).request('/api/logout', {
      method: 'POST',
      headers: { ...HTTPS, origin: proxied.url.replace('http:', 'https:') },
    });
    expect(out.status).toBe(204);
    const cleared = out.headers.getSetCookie();
    expect(cleared).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^__Host-ranch_session=;.*Max-Age=0.*Secure/i),
        expect.stringMatching(/^ranch_session=;.*Max-Age=0/i),
      ]),
    );
    expect((await user(`__Host-ranch_session=${token}`, HTTPS)).status).toBe(401);
  });
});

describe('[A5] [A8] forwarded headers are believed only from a trusted proxy (N7)', () => {
  let elsewhere: TestServer;

  beforeAll(async () => {
    // The proxy is another machine: this test's requests (from 127.0.0.1) come straight to the port.
    elsewhere = await startTestServer('pglite', { trustProxy: ['10.0.0.5', 'fd00::/8'] });
  });
  afterAll(() => elsewhere?.destroy());

  it('a client reaching the port directly gets the plain cookie whatever X-Forwarded-Proto says', async () => {
    const response = await signInWith(elsewhere, { ...HTTPS, 'x-forwarded-for': '203.0.113.9' });
    expect(response.status).toBe(303);
    expect(response.headers.get('set-cookie') ?? '').toMatch(/^ranch_session=/);
  });

  it('its failed sign-ins count against its own address, not the one it writes in X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) {
      const response = await fetch(`${elsewhere.url}/api/login`, {
        method: 'POST',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
        body: new URLSearchParams({ email: `nobody${i}@ranch.test`, password: 'wrong' }),
        redirect: 'manual',
      });
      statuses.push(response.status);
    }
    // 20 free failures per address (login-limits.ts), then the address waits.
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(20)).toContain(429);
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

/** A sign-in POST with the Host and Origin a browser would send (fetch may not set Host): its status. */
function postAs(server: TestServer, headers: Record<string, string>): Promise<number> {
  const url = new URL('/api/login', server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end('email=nobody%40ranch.test&password=wrong');
  });
}

describe('[A10] the Origin check compares the scheme and knows which hosts it serves (L2)', () => {
  let direct: TestServer;
  let proxied: TestServer;
  let port: string;

  beforeAll(async () => {
    direct = await startTestServer('pglite');
    proxied = await startTestServer('pglite', { trustProxy: true });
    port = new URL(direct.url).port;
  });
  afterAll(async () => {
    await direct?.destroy();
    await proxied?.destroy();
  });

  const same = (host: string, scheme = 'http') => ({ host: `${host}:${port}`, origin: `${scheme}://${host}:${port}` });

  it('takes this server by IP address, localhost and the machine name: what npm start and phones on the network use', async () => {
    for (const host of ['127.0.0.1', 'localhost', '192.168.1.20', '[::1]', hostname(), `${hostname()}.local`]) {
      // Past the Origin check: the wrong password's 401 (or, after three, the sign-in delay's 429).
      expect([401, 429], host).toContain(await postAs(direct, same(host)));
    }
  });

  it('refuses a page on another name pointed at this machine (DNS rebinding), and https claimed over plain HTTP', async () => {
    expect(await postAs(direct, same('rebind.attacker.test'))).toBe(403);
    expect(await postAs(direct, same('127.0.0.1', 'https'))).toBe(403);
    // The port is part of the origin.
    expect(await postAs(direct, { host: `127.0.0.1:${port}`, origin: 'http://127.0.0.1:1' })).toBe(403);
  });

  it('behind a trusted proxy, takes the host the proxy serves over the scheme it says', async () => {
    const portProxied = new URL(proxied.url).port;
    const host = `ranch.example.test:${portProxied}`;
    expect(await postAs(proxied, { host, origin: `https://${host}`, 'x-forwarded-proto': 'https' })).toBe(401);
    expect(await postAs(proxied, { host, origin: `http://${host}`, 'x-forwarded-proto': 'https' })).toBe(403);
  });
});
