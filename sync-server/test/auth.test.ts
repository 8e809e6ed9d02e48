import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';

describe.each(databaseKinds())('accounts and sessions (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => server.destroy());

  it('[A4] renders a sign-in page whose fields have labels', async () => {
    const response = await fetch(`${server.url}/api/login`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('Horse Ranch Management System');
    expect(page).toMatch(/<label for="email">Email<\/label>\s*<input id="email" name="email"/);
    expect(page).toMatch(/<label for="password">Password<\/label>\s*<input id="password" name="password" type="password"/);
    expect(page).toMatch(/<form method="post" action="\/api\/login">/);
  });

  it('[A4] [A8] signs in with a session cookie that scripts cannot read', async () => {
    const response = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      body: new URLSearchParams({ email: ADMIN.email.toUpperCase(), password: ADMIN.password }),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^ranch_session=[a-z2-7]{32};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it('[A4] shows the page again with an error and 401 for a wrong password or unknown account', async () => {
    for (const email of [ADMIN.email, 'nobody@ranch.test']) {
      const response = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        body: new URLSearchParams({ email, password: 'wrong password' }),
        redirect: 'manual',
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('set-cookie')).toBeNull();
      const page = await response.text();
      expect(page).toContain('Invalid email or password.');
      expect(page).toContain(`value="${email}"`);
    }
  });

  it('escapes what was typed when showing the page again', async () => {
    const response = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      body: new URLSearchParams({ email: '"><script>alert(1)</script>', password: 'x' }),
    });
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain('<script>alert(1)</script>');
  });

  it('[A3] [A1] returns the signed-in user with its fields, and 401 without a session', async () => {
    const me = await admin.request('/api/auth/user');
    expect(me.status).toBe(200);
    const user = await me.json();
    expect(user).toMatchObject({ email: ADMIN.email, role: 'Admin', firstName: null, lastName: null, profileImageUrl: null });
    expect(Object.keys(user).sort()).toEqual([
      'createdAt',
      'email',
      'firstName',
      'id',
      'isActive',
      'lastName',
      'profileImageUrl',
      'role',
      'updatedAt',
    ]);
    const anonymous = await fetch(`${server.url}/api/auth/user`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: 'Unauthorized' });
  });

  it('[A6] signs out with a POST: a form lands on / (303), the app gets 204; the session no longer works', async () => {
    const session = await signIn(server.url, ADMIN.email, ADMIN.password);
    const out = await session.request('/api/logout', { method: 'POST', headers: { origin: server.url, accept: 'text/html' } });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    // [A11]: the browser empties its HTTP cache of this site (served photos).
    expect(out.headers.get('clear-site-data')).toBe('"cache"');
    expect((await session.request('/api/auth/user')).status).toBe(401);

    const app = await signIn(server.url, ADMIN.email, ADMIN.password);
    const fetched = await app.request('/api/logout', { method: 'POST', headers: { origin: server.url } });
    expect(fetched.status).toBe(204);
    expect(fetched.headers.get('clear-site-data')).toBe('"cache"');
    expect((await app.request('/api/auth/user')).status).toBe(401);
  });

  it('[A6] a GET, or a POST from another site, signs no one out: the GET asks with a form', async () => {
    const session = await signIn(server.url, ADMIN.email, ADMIN.password);
    const asked = await session.request('/api/logout', { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } });
    expect(asked.status).toBe(200);
    const page = await asked.text();
    expect(page).toContain('<form method="post" action="/api/logout">');
    expect(page).toContain('Sign out of Ranch on this device?');
    expect(asked.headers.get('set-cookie')).toBeNull();
    const foreign: Record<string, string>[] = [{ origin: 'http://evil.test' }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of foreign) {
      expect((await session.request('/api/logout', { method: 'POST', headers })).status).toBe(403);
    }
    expect((await session.request('/api/auth/user')).status).toBe(200);
  });

  it('[A9] [U10] lets an Admin create accounts, and nobody else', async () => {
    const created = await admin.request('/api/users', {
      method: 'POST',
      json: { email: 'Rider@Ranch.test', firstName: 'Rosa', lastName: 'Rider', role: 'Staff', password: 'saddle up now' },
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ email: 'rider@ranch.test', firstName: 'Rosa', lastName: 'Rider', role: 'Staff' });

    const again = await admin.request('/api/users', {
      method: 'POST',
      json: { email: 'rider@ranch.test', firstName: 'R', lastName: 'R', role: 'Staff', password: 'saddle up now' },
    });
    expect(again.status).toBe(409);

    const staff = await signIn(server.url, 'rider@ranch.test', 'saddle up now');
    const byStaff = await staff.request('/api/users', {
      method: 'POST',
      json: { email: 'x@ranch.test', firstName: 'X', lastName: 'Y', role: 'Admin', password: 'whatever123' },
    });
    expect(byStaff.status).toBe(403);
    const anonymous = await client(server.url, '').request('/api/users', {
      method: 'POST',
      json: { email: 'x@ranch.test', firstName: 'X', lastName: 'Y', role: 'Admin', password: 'whatever123' },
    });
    expect(anonymous.status).toBe(401);
  });

  it('[U10] refuses invalid accounts with a message', async () => {
    const cases: [unknown, RegExp][] = [
      [{ email: 'not-an-email', firstName: 'A', lastName: 'B', role: 'Staff', password: 'long enough' }, /valid email/],
      [{ email: 'a@b.test', firstName: '', lastName: 'B', role: 'Staff', password: 'long enough' }, /First name is required/],
      [{ email: 'a@b.test', firstName: 'A', lastName: 'B', role: 'Owner', password: 'long enough' }, /Role must be/],
      [{ email: 'a@b.test', firstName: 'A', lastName: 'B', role: 'Staff', password: 'short' }, /at least 8/],
    ];
    for (const [body, message] of cases) {
      const response = await admin.request('/api/users', { method: 'POST', json: body });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toMatch(message);
    }
  });

  it('[A10] refuses state-changing requests from a foreign Origin, JSON and form alike', async () => {
    const json = await admin.request('/api/breeds', {
      method: 'POST',
      json: { name: 'Arabian' },
      headers: { origin: 'https://evil.example' },
    });
    expect(json.status).toBe(403);
    const form = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      body: new URLSearchParams({ email: ADMIN.email, password: ADMIN.password }),
      headers: { origin: 'https://evil.example' },
      redirect: 'manual',
    });
    expect(form.status).toBe(403);
    const sameOrigin = await admin.request('/api/breeds', {
      method: 'POST',
      json: { name: 'Arabian' },
      headers: { origin: server.url.replace('127.0.0.1', '127.0.0.1') },
    });
    expect(sameOrigin.status).toBe(201);
  });

  it('[R1] gives a Viewer read access but no writes', async () => {
    const viewer = await signInAs(server.url, admin, 'Viewer');
    expect((await viewer.request('/api/breeds')).status).toBe(200);
    const write = await viewer.request('/api/breeds', { method: 'POST', json: { name: 'Mustang' } });
    expect(write.status).toBe(403);
    expect((await write.json()).message).toMatch(/Forbidden/);
  });
});
