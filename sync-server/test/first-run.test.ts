import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LOOKUPS } from '../src/api/default-lookups.ts';
import { lanAddresses, shownAddresses } from '../src/network-addresses.ts';
import { client, signIn } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const OWNER = {
  ranchName: 'Willow Creek Ranch',
  firstName: 'Dana',
  lastName: 'Reyes',
  email: 'Dana@Willow.test',
  password: 'a good long password',
  confirm: 'a good long password',
};

function post(server: TestServer, path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual', headers });
}

function tokenOf(server: TestServer): string {
  const token = server.setupPath?.split('/').pop();
  if (!token) throw new Error('The server made no setup address');
  return token;
}

describe.each(databaseKinds())('[A14] first run in the browser (%s)', (kind) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.destroy();
    server = undefined;
  });

  it('[A14] [L8] the setup address makes the owner, the ranch name and the default lists, once', async () => {
    server = await startTestServer(kind, { noAdmin: true });
    expect(server.setupPath).toMatch(/^\/api\/setup\/[a-z2-7]{32}$/);
    const page = await fetch(`${server.url}${server.setupPath}`);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('Create Ranch');
    expect(text).not.toContain('<script');

    const done = await post(server, '/api/setup', { ...OWNER, token: tokenOf(server) });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/');
    const owner = client(server.url, (done.headers.get('set-cookie') ?? '').split(';')[0] ?? '');
    const me = await (await owner.request('/api/auth/user')).json();
    expect(me).toMatchObject({ email: 'dana@willow.test', firstName: 'Dana', lastName: 'Reyes', role: 'Admin' });
    expect(await (await owner.request('/api/ranch')).json()).toMatchObject({ name: 'Willow Creek Ranch' });
    for (const list of ['breeds', 'colors', 'genders', 'statuses'] as const) {
      const items: { name: string; isActive: boolean }[] = await (await owner.request(`/api/${list}`)).json();
      expect(items.map((item) => item.name).sort()).toEqual([...DEFAULT_LOOKUPS[list]].sort());
      expect(items.every((item) => item.isActive)).toBe(true);
    }
    expect(DEFAULT_LOOKUPS.genders).toEqual(['Mare', 'Stallion', 'Gelding', 'Filly', 'Colt']);
    expect(DEFAULT_LOOKUPS.statuses).toEqual(['Available', 'In Training', 'Reserved', 'Sold', 'Retired']);
    // The owner signs in with the password they chose.
    await signIn(server.url, 'dana@willow.test', OWNER.password);

    // Used: the same address, and its form, are refused now that an Admin exists.
    const again = await fetch(`${server.url}${server.setupPath}`);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('set up already');
    const second = await post(server, '/api/setup', { ...OWNER, email: 'other@willow.test', token: tokenOf(server) });
    expect(second.status).toBe(410);
    expect((await (await owner.request('/api/users')).json()).length).toBe(1);
  });

  it('[A14] once an Admin exists, a restart prints no setup address and the old one is refused', async () => {
    server = await startTestServer(kind, { noAdmin: true });
    const path = server.setupPath;
    expect((await post(server, '/api/setup', { ...OWNER, token: tokenOf(server) })).status).toBe(303);
    server = await server.restart({ noAdmin: true });
    expect(server.setupPath).toBeUndefined();
    const old = await fetch(`${server.url}${path}`);
    expect(old.status).toBe(410);
    expect(await old.text()).toContain('set up already');
  }, 60_000);

  it('[A14] a wrong token, a bad form and hostile input get a clear page, never a 5xx, and store nothing', async () => {
    server = await startTestServer(kind, { noAdmin: true });
    const token = tokenOf(server);
    const wrong = `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`;
    for (const path of [`/api/setup/${wrong}`, '/api/setup/x', `/api/setup/${'%00'.repeat(40)}`, `/api/setup/${'a'.repeat(5000)}`]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain('not valid');
    }
    const bad: [Record<string, string>, number, string][] = [
      [{ ...OWNER, token: wrong }, 404, 'not valid'],
      [{ ...OWNER, token, confirm: 'something else' }, 400, 'The two passwords differ'],
      [{ ...OWNER, token, password: 'short', confirm: 'short' }, 400, 'at least 8 characters'],
      [{ ...OWNER, token, email: 'not an e-mail' }, 400, 'valid email'],
      [{ ...OWNER, token, ranchName: '   ' }, 400, 'Ranch name is required'],
      [{ ...OWNER, token, firstName: 'x'.repeat(5000) }, 400, 'at most'],
      [{ token }, 400, 'required'],
    ];
    for (const [form, status, message] of bad) {
      const response = await post(server, '/api/setup', form);
      expect(response.status, JSON.stringify(form).slice(0, 80)).toBe(status);
      expect(await response.text()).toContain(message);
    }
    const json = await fetch(`${server.url}/api/setup`, {
      method: 'POST',
      body: '{"token":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(404);
    const huge = await post(server, '/api/setup', { ...OWNER, token, ranchName: 'x'.repeat(20_000) });
    expect(huge.status).toBe(413);
    const [count] = await server.db.sql<{ n: number }[]>`select count(*)::int as n from users`;
    expect(count?.n).toBe(0);
    // The form shows again with what was typed, never the password.
    const refused = await (await post(server, '/api/setup', { ...OWNER, token, confirm: 'different' })).text();
    expect(refused).toContain('Willow Creek Ranch');
    expect(refused).not.toContain(OWNER.password);
    // And the right token still works.
    expect((await post(server, '/api/setup', { ...OWNER, token })).status).toBe(303);
  });

  it('[A14] [A5] guessing setup tokens from one address is slowed down', async () => {
    server = await startTestServer(kind, { noAdmin: true });
    // 20 free failures per address, then waits that double: a burst meets a 429.
    const statuses: number[] = [];
    while (statuses.length < 40 && statuses.at(-1) !== 429) {
      statuses.push((await fetch(`${server.url}/api/setup/${'b'.repeat(32)}`)).status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Even the right token waits its turn then.
    const right = await fetch(`${server.url}${server.setupPath}`);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('[A14] two owners at once: one Admin, the other is told the ranch is set up', async () => {
    server = await startTestServer(kind, { noAdmin: true });
    const token = tokenOf(server);
    const answers = await Promise.all([
      post(server, '/api/setup', { ...OWNER, token }),
      post(server, '/api/setup', { ...OWNER, email: 'second@willow.test', token }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 410]);
    const [count] = await server.db.sql<{ n: number }[]>`select count(*)::int as n from users where role = 'Admin'`;
    expect(count?.n).toBe(1);
  });
});

describe('[A14] the addresses printed for phones', () => {
  it('lists the non-internal IPv4 addresses only, and only when listening on every address', () => {
    const interfaces = {
      lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }],
      eth0: [
        { address: '192.168.1.20', family: 'IPv4', internal: false },
        { address: 'fe80::1', family: 'IPv6', internal: false },
      ],
      wlan0: [{ address: '10.0.0.5', family: 'IPv4', internal: false }],
    } as unknown as Parameters<typeof lanAddresses>[0];
    const lan = lanAddresses(interfaces);
    expect(lan).toEqual(['192.168.1.20', '10.0.0.5']);
    expect(shownAddresses('http://127.0.0.1:8787', '0.0.0.0', '/api/setup/t', lan)).toEqual([
      'http://127.0.0.1:8787/api/setup/t',
      'http://192.168.1.20:8787/api/setup/t',
      'http://10.0.0.5:8787/api/setup/t',
    ]);
    expect(shownAddresses('http://127.0.0.1:8787', '127.0.0.1', '/api/setup/t', lan)).toEqual(['http://127.0.0.1:8787/api/setup/t']);
  });
});
