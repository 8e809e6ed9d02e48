import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';

type Link = { url: string; expiresAt: string; user: { id: string; email: string; role: string }; mail?: unknown };
const PASSWORD = 'my own new password';

describe.each(databaseKinds())('[U17] [U18] invitation and password-reset links (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let counter = 0;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => server.destroy());

  async function invite(role = 'Staff', as = admin): Promise<Response> {
    return as.request('/api/users/invitations', {
      method: 'POST',
      json: { email: `person${++counter}@ranch.test`, firstName: 'Sam', lastName: 'Ortiz', role },
    });
  }
  const path = (link: Link) => new URL(link.url).pathname;
  const tokenOf = (link: Link) => path(link).split('/').pop() ?? '';
  const use = (token: string, password = PASSWORD, confirm = password) =>
    fetch(`${server.url}/api/account-link`, {
      method: 'POST',
      body: new URLSearchParams({ token, password, confirm }),
      redirect: 'manual',
    });

  it('[U17] an invited person sets their own password by the link, once, and is signed in', async () => {
    const response = await invite();
    expect(response.status).toBe(201);
    const link: Link = await response.json();
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/account-link\/[a-z2-7]{32}$/);
    const days = (Date.parse(link.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    // Without SMTP settings the answer says nothing about e-mail: the Admin hands the link over.
    expect(link).not.toHaveProperty('mail');
    // Nobody signs in to the account before the link is used.
    await expect(signIn(server.url, link.user.email, '')).rejects.toThrow();
    const page = await fetch(`${server.url}${path(link)}`);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('Welcome, Sam');
    expect(text).not.toContain('<script');
    // Only the hash is stored.
    const stored = await server.db.sql<{ id: string }[]>`select id from account_links where user_id = ${link.user.id}`;
    expect(stored.map((row) => row.id)).not.toContain(tokenOf(link));

    const done = await use(tokenOf(link));
    expect(done.status).toBe(303);
    const person = client(server.url, (done.headers.get('set-cookie') ?? '').split(';')[0] ?? '');
    expect(await (await person.request('/api/auth/user')).json()).toMatchObject({ email: link.user.email, role: 'Staff' });
    await signIn(server.url, link.user.email, PASSWORD);

    // Used: refused with a clear message, the password unchanged.
    const again = await use(tokenOf(link), 'another password here');
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This link was used already');
    expect((await fetch(`${server.url}${path(link)}`)).status).toBe(410);
    await signIn(server.url, link.user.email, PASSWORD);
  });

  it('[U17] an expired link is refused with a clear message', async () => {
    const link: Link = await (await invite()).json();
    await server.db.sql`update account_links set expires_at = now() - interval '1 second' where user_id = ${link.user.id}`;
    for (const answer of [await fetch(`${server.url}${path(link)}`), await use(tokenOf(link))]) {
      expect(answer.status).toBe(410);
      expect(await answer.text()).toContain('This link has expired. Ask an Admin for a new one.');
    }
  });

  it('[U18] a reset link replaces the password and ends every session of the account; a newer link voids the older', async () => {
    const staff = await signInAs(server.url, admin, 'Staff');
    const me = await (await staff.request('/api/auth/user')).json();
    const first: Link = await (await admin.request(`/api/users/${me.id}/link`, { method: 'POST', json: {} })).json();
    const response = await admin.request(`/api/users/${me.id}/link`, { method: 'POST', json: {} });
    expect(response.status).toBe(201);
    const second: Link = await response.json();
    expect((await fetch(`${server.url}${path(first)}`)).status).toBe(410);
    const page = await (await fetch(`${server.url}${path(second)}`)).text();
    expect(page).toContain('Choose a new password');
    expect((await use(tokenOf(second))).status).toBe(303);
    expect((await staff.request('/api/auth/user')).status).toBe(401);
    await signIn(server.url, me.email, PASSWORD);
  });

  it('[U17] [R4] only Admins make links; an Admin invitation and a reset need a recent sign-in', async () => {
    const staff = await signInAs(server.url, admin, 'Staff');
    expect((await invite('Staff', staff)).status).toBe(403);
    const viewer = await signInAs(server.url, admin, 'Viewer');
    const someone = await (await admin.request('/api/users')).json();
    expect((await viewer.request(`/api/users/${someone[0].id}/link`, { method: 'POST', json: {} })).status).toBe(403);
    expect((await client(server.url, '').request('/api/users/invitations', { method: 'POST', json: {} })).status).toBe(401);
    // An old sign-in must give the password for an Admin invitation and a reset link, not for a Staff one.
    await server.db.sql`update sessions set authenticated_at = now() - interval '10 minutes'`;
    const stale = await invite('Admin');
    expect(stale.status).toBe(400);
    expect((await stale.json()).message).toContain('Enter your password to confirm this change.');
    expect((await invite('Staff')).status).toBe(201);
    const target = someone.find((u: { email: string }) => u.email !== ADMIN.email);
    expect((await admin.request(`/api/users/${target.id}/link`, { method: 'POST', json: {} })).status).toBe(400);
    const confirmed = await admin.request(`/api/users/${target.id}/link`, { method: 'POST', json: { currentPassword: ADMIN.password } });
    expect(confirmed.status).toBe(201);
    // Not for oneself, not for nobody.
    const mine = someone.find((u: { email: string }) => u.email === ADMIN.email);
    expect((await admin.request(`/api/users/${mine.id}/link`, { method: 'POST', json: {} })).status).toBe(403);
    expect((await admin.request(`/api/users/${crypto.randomUUID()}/link`, { method: 'POST', json: {} })).status).toBe(404);
    expect((await admin.request('/api/users/not-a-uuid/link', { method: 'POST', json: {} })).status).toBe(404);
  });

  it('[U17] hostile input never gives a 5xx, and a taken e-mail is a 409', async () => {
    const bodies: unknown[] = [
      null,
      [],
      'x',
      { email: 'nope' },
      { email: 'a@b.test', firstName: 'x'.repeat(5000), lastName: 'y', role: 'Staff' },
      { email: 'a@b.test', firstName: 'A', lastName: 'B', role: 'Owner' },
    ];
    for (const json of bodies) {
      const response = await admin.request('/api/users/invitations', { method: 'POST', json });
      expect(response.status, JSON.stringify(json).slice(0, 60)).toBe(400);
    }
    expect(
      (
        await admin.request('/api/users/invitations', {
          method: 'POST',
          json: { email: ADMIN.email, firstName: 'A', lastName: 'B', role: 'Staff' },
        })
      ).status,
    ).toBe(409);
    const link: Link = await (await invite()).json();
    for (const [form, status] of [
      [{ token: tokenOf(link), password: 'short', confirm: 'short' }, 400],
      [{ token: tokenOf(link), password: PASSWORD, confirm: 'different' }, 400],
      [{ token: 'x' }, 404],
      [{ token: 'a'.repeat(32), password: PASSWORD, confirm: PASSWORD }, 404],
      [{}, 404],
    ] as const) {
      const response = await fetch(`${server.url}/api/account-link`, {
        method: 'POST',
        body: new URLSearchParams(form),
        redirect: 'manual',
      });
      expect(response.status, JSON.stringify(form)).toBe(status);
    }
    for (const bad of ['x', '%00', 'a'.repeat(5000)]) expect((await fetch(`${server.url}/api/account-link/${bad}`)).status).toBe(404);
    // The refused forms left the link usable.
    expect((await use(tokenOf(link))).status).toBe(303);
  });

  it('[U17] [A5] guessing link tokens from one address is slowed down', async () => {
    // Past the address's free failures each attempt waits longer and longer: a burst meets a 429.
    let refused: Response | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const response = await fetch(`${server.url}/api/account-link/${'c'.repeat(32)}`);
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(404);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused?.text()).toContain('Too many wrong links from this address');
  });
});
