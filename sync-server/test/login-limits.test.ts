import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_COOKIE_MAX_AGE_SECONDS } from '../src/auth/device-cookie.ts';
import { throttleKey, tooManyAttemptsMessage } from '../src/auth/login-limits.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { signIn, signInAs, type ApiClient } from './support/client.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.ts';
import { ADMIN } from './support/server.ts';

const PASSWORD = 'a long enough password';
const TOO_MANY = /Too many failed sign-in attempts\. Try again in \d+ (second|minute)s?\./;

describe('[A5] the sign-in throttle message', () => {
  it('says seconds under a minute and whole minutes from then on', () => {
    expect(tooManyAttemptsMessage(1)).toBe('Too many failed sign-in attempts. Try again in 1 second.');
    expect(tooManyAttemptsMessage(59)).toBe('Too many failed sign-in attempts. Try again in 59 seconds.');
    expect(tooManyAttemptsMessage(60)).toBe('Too many failed sign-in attempts. Try again in 1 minute.');
    expect(tooManyAttemptsMessage(61)).toBe('Too many failed sign-in attempts. Try again in 2 minutes.');
    expect(tooManyAttemptsMessage(900)).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
  });
});

describe.each(databaseKinds())('[A5] sign-in throttling (%s)', (kind) => {
  let database: TestDatabase;
  let server: RunningServer;
  let admin: ApiClient;
  let addressCounter = 0;

  /** Behind a trusted proxy, so each test can come from addresses of its own. */
  const freshAddress = () => {
    const n = addressCounter++;
    return `198.51.${100 + Math.floor(n / 250)}.${(n % 250) + 1}`;
  };

  function attempt(email: string, password: string, address: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${server.url}/api/login`, {
      method: 'POST',
      body: new URLSearchParams({ email, password }),
      headers: { 'x-forwarded-for': address, ...headers },
      redirect: 'manual',
    });
  }

  /** `name=value` of the device cookie a sign-in answer set. */
  function deviceCookie(response: Response): string {
    const cookie = response.headers.getSetCookie().find((c) => /^(__Host-)?ranch_device=/.test(c));
    if (!cookie) throw new Error(`No device cookie in ${response.status} answer`);
    return cookie.split(';')[0] ?? '';
  }

  /** The owner's browser: signs in once with the right password and keeps its device cookie. */
  async function ownersBrowser(email: string, address = freshAddress()): Promise<{ cookie: string }> {
    const response = await attempt(email, PASSWORD, address);
    expect(response.status).toBe(303);
    return { cookie: deviceCookie(response) };
  }

  async function newAccount(): Promise<string> {
    const session = await signInAs(server.url, admin, 'Staff');
    const me = await (await session.request('/api/auth/user')).json();
    return me.email;
  }

  /** The clock moves on past every wait (the counts stay). */
  const waitsOver = () => server.db.sql`update login_attempts set next_attempt_at = now() where next_attempt_at > now()`;

  /** The seconds the last failure under `key` made the next attempt wait. */
  async function delayOf(key: string): Promise<number> {
    const [row] = await server.db.sql<{ delay: number }[]>`
      select extract(epoch from next_attempt_at - last_failure_at)::int as delay from login_attempts where key = ${key}`;
    return row?.delay ?? Number.NaN;
  }

  /** A long attack's state under `key`: hundreds of failures, the next attempt 15 minutes away. */
  const longAttack = (key: string) =>
    server.db.sql`
      insert into login_attempts (key, failures, last_failure_at, next_attempt_at)
      values (${key}, 500, now(), now() + interval '15 minutes')
      on conflict (key) do update set failures = 500, last_failure_at = now(), next_attempt_at = now() + interval '15 minutes'`;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startServer({ database: database.options, port: 0, host: '127.0.0.1', admin: ADMIN, trustProxy: true });
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await server.close();
    await database.drop();
  });

  it('[A5] lets 3 failures through, then each attempt waits 1, 2, 4, 8 seconds, answered 429 with the page, the message and Retry-After', async () => {
    const email = await newAccount();
    const address = freshAddress();
    const key = throttleKey('accountAddress', email, address);
    for (let i = 0; i < 2; i++) expect((await attempt(email, 'wrong password', address)).status).toBe(401);
    const waits: number[] = [];
    for (const delay of [1, 2, 4, 8]) {
      const failed = await attempt(email, 'wrong password', address);
      expect(failed.status).toBe(401);
      expect(await failed.text()).toContain('Invalid email or password.');
      expect(await delayOf(key)).toBe(delay);
      // The right password too: no password is checked before the wait is over.
      const refused = await attempt(email, PASSWORD, address);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('set-cookie')).toBeNull();
      expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
      waits.push(Number(refused.headers.get('retry-after')));
      const page = await refused.text();
      expect(page).toContain(tooManyAttemptsMessage(delay));
      // Still a working form without JavaScript, with what was typed kept.
      expect(page).toMatch(/<form method="post" action="\/api\/login">/);
      expect(page).toContain(`value="${email}"`);
      await waitsOver();
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    expect(tooManyAttemptsMessage(1)).toBe('Too many failed sign-in attempts. Try again in 1 second.');
  });

  it('[A5] never makes anyone wait more than 15 minutes, and forgets a key an hour after its last failure', async () => {
    const email = await newAccount();
    const address = freshAddress();
    const key = throttleKey('accountAddress', email, address);
    await longAttack(key);
    const refused = await attempt(email, PASSWORD, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    expect(await refused.text()).toContain('Try again in 15 minutes.');
    await waitsOver();
    expect((await attempt(email, 'wrong password', address)).status).toBe(401);
    expect(await delayOf(key)).toBe(900);
    await server.db.sql`
      update login_attempts set last_failure_at = now() - interval '1 hour 1 second', next_attempt_at = now() - interval '45 minutes'
      where key = ${key}`;
    expect((await attempt(email, 'wrong password', address)).status).toBe(401);
    expect(await delayOf(key)).toBe(0);
  });

  it('[A5] a new device without a device cookie is delayed, then signs in with the right password and gets one', async () => {
    const email = await newAccount();
    const address = freshAddress();
    for (let i = 0; i < 3; i++) expect((await attempt(email, 'wrong password', address)).status).toBe(401);
    expect((await attempt(email, PASSWORD, address)).status).toBe(429);
    await waitsOver();
    const signedIn = await attempt(email, PASSWORD, address);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('set-cookie')).toMatch(/^ranch_session=/);
    expect(deviceCookie(signedIn)).toMatch(/^ranch_device=/);
    // The success cleared this account-and-address's count: 3 failures for free again.
    for (let i = 0; i < 3; i++) expect((await attempt(email, 'wrong password', address)).status).toBe(401);
    expect((await attempt(email, 'wrong password', address)).status).toBe(429);
  });

  it("[A5] the owner's browser with its device cookie signs in at once while the account is sprayed from many addresses", async () => {
    const email = await newAccount();
    const owner = await ownersBrowser(email);
    const sprayed: number[] = [];
    for (let i = 0; i < 12; i++) sprayed.push((await attempt(email, 'wrong password', freshAddress())).status);
    // 10 failures across addresses for free, then the account's own delays.
    expect(sprayed.slice(0, 10)).toEqual(Array(10).fill(401));
    await longAttack(throttleKey('account', email));
    const stranger = await attempt(email, PASSWORD, freshAddress());
    expect(stranger.status).toBe(429);
    expect(await stranger.text()).toMatch(TOO_MANY);
    // The owner, from home and from another network alike.
    expect((await attempt(email, PASSWORD, freshAddress(), { cookie: owner.cookie })).status).toBe(303);
    const elsewhere = await attempt(email, PASSWORD, freshAddress(), { cookie: owner.cookie });
    expect(elsewhere.status).toBe(303);
    expect(deviceCookie(elsewhere)).toBe(owner.cookie);
  });

  it('[A5] behind a proxy all requests share one address: hundreds of failures there keep out neither the owner with a device cookie nor, after the delay, a new device', async () => {
    const proxy = freshAddress();
    const email = await newAccount();
    const owner = await ownersBrowser(email, proxy);
    const other = await newAccount();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await attempt(`guess${i}@ranch.test`, 'wrong password', proxy)).status);
    // 20 free (the owner's success took its attempt back), then the address's own delays.
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses).toContain(429);
    await longAttack(throttleKey('address', proxy));
    expect((await attempt(email, PASSWORD, proxy, { cookie: owner.cookie })).status).toBe(303);
    // A colleague's new device waits, never more than the cap, and then gets in.
    const colleague = await attempt(other, PASSWORD, proxy);
    expect(colleague.status).toBe(429);
    expect(Number(colleague.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(Number(colleague.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    await waitsOver();
    expect((await attempt(other, PASSWORD, proxy)).status).toBe(303);
  });

  it('[A5] a forged device cookie, or one signed for another account, earns no exemption', async () => {
    const email = await newAccount();
    const otherEmail = await newAccount();
    const owner = await ownersBrowser(email);
    const otherBrowser = await ownersBrowser(otherEmail);
    await longAttack(throttleKey('account', email));
    const address = freshAddress();
    const [name, value = ''] = owner.cookie.split('=');
    const flipped = `${value.slice(0, -5)}${value.at(-5) === 'A' ? 'B' : 'A'}${value.slice(-4)}`;
    const forgeries = [
      otherBrowser.cookie,
      `${name}=${flipped}`,
      `${name}=${value.split('.')[0]}.${'A'.repeat(43)}`,
      `${name}=garbage`,
      `__Host-ranch_device=${flipped}`,
    ];
    for (const cookie of forgeries) expect((await attempt(email, PASSWORD, address, { cookie })).status, cookie).toBe(429);
    expect((await attempt(email, PASSWORD, address, { cookie: owner.cookie })).status).toBe(303);
  });

  it('[A5] with a device cookie, only that device counts: 3 failures, then its own delays', async () => {
    const email = await newAccount();
    const owner = await ownersBrowser(email);
    const address = freshAddress();
    for (let i = 0; i < 3; i++) expect((await attempt(email, 'wrong password', address, { cookie: owner.cookie })).status).toBe(401);
    const refused = await attempt(email, PASSWORD, address, { cookie: owner.cookie });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    // The device's failures touch neither the account's nor the address's counts.
    const shared = [throttleKey('account', email), throttleKey('address', address), throttleKey('accountAddress', email, address)];
    const [counted] = await server.db.sql<{ failures: number }[]>`
      select coalesce(sum(failures), 0)::int as failures from login_attempts where key = any(${shared}::text[])`;
    expect(counted?.failures).toBe(0);
    await waitsOver();
    expect((await attempt(email, PASSWORD, address, { cookie: owner.cookie })).status).toBe(303);
  });

  it('[A5] one browser keeps its device cookie for several accounts (a shared office computer)', async () => {
    const first = await newAccount();
    const second = await newAccount();
    const office = freshAddress();
    const one = await attempt(first, PASSWORD, office);
    const both = await attempt(second, PASSWORD, office, { cookie: deviceCookie(one) });
    const cookie = deviceCookie(both);
    for (const email of [first, second]) {
      await longAttack(throttleKey('account', email));
      expect((await attempt(email, PASSWORD, office, { cookie })).status, email).toBe(303);
    }
  });

  it('[A5] the device cookie is HttpOnly, SameSite=Strict, for a year; Secure and __Host- named over HTTPS through the trusted proxy', async () => {
    const email = await newAccount();
    const plain = (await attempt(email, PASSWORD, freshAddress(), { 'x-forwarded-proto': 'http' })).headers.getSetCookie()[1] ?? '';
    expect(plain).toMatch(/^ranch_device=[^;]+;/);
    for (const attribute of [/; Max-Age=31536000(;|$)/, /; Path=\/(;|$)/, /; HttpOnly(;|$)/, /; SameSite=Strict(;|$)/]) {
      expect(plain).toMatch(attribute);
    }
    expect(plain).not.toMatch(/Secure/);
    expect(DEVICE_COOKIE_MAX_AGE_SECONDS).toBe(31_536_000);
    const secure = await attempt(email, PASSWORD, freshAddress(), { 'x-forwarded-proto': 'https' });
    const cookie = secure.headers.getSetCookie()[1] ?? '';
    expect(cookie).toMatch(/^__Host-ranch_device=/);
    expect(cookie).toMatch(/;\s*Secure/);
    expect(cookie).toMatch(/;\s*Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
    await longAttack(throttleKey('account', email));
    const again = await attempt(email, PASSWORD, freshAddress(), { 'x-forwarded-proto': 'https', cookie: deviceCookie(secure) });
    expect(again.status).toBe(303);
    // A browser holding both names (signed in over HTTP, then HTTPS): either may be the one.
    const plainCookie = plain.split(';')[0] ?? '';
    const both = await attempt(email, PASSWORD, freshAddress(), { cookie: `__Host-ranch_device=stale; ${plainCookie}` });
    expect(both.status).toBe(303);
  });

  it('[A5] treats unknown accounts exactly like known ones', async () => {
    const known = await newAccount();
    const answers: string[] = [];
    for (const email of [known, 'nobody-here@ranch.test']) {
      const address = freshAddress();
      for (let i = 0; i < 3; i++) await attempt(email, 'wrong password', address);
      const refused = await attempt(email, 'wrong password', address);
      answers.push(`${refused.status} ${refused.headers.get('retry-after')} ${(await refused.text()).match(TOO_MANY)?.[0]}`);
    }
    expect(answers[0]).toBe('429 1 Too many failed sign-in attempts. Try again in 1 second.');
    expect(answers[1]).toBe(answers[0]);
  });

  it('[A5] slows an address down after 20 failures across accounts, and not other addresses', async () => {
    const address = freshAddress();
    for (let i = 0; i < 20; i++) {
      expect((await attempt(`guess${i}@ranch.test`, 'wrong password', address)).status).toBe(401);
    }
    const refused = await attempt(ADMIN.email, ADMIN.password, address);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toMatch(TOO_MANY);
    expect((await attempt(ADMIN.email, ADMIN.password, freshAddress())).status).toBe(303);
  });

  it('[A5] counts malformed sign-ins against the address', async () => {
    const address = freshAddress();
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        body: new URLSearchParams({}),
        headers: { 'x-forwarded-for': address },
      });
      expect(response.status).toBe(401);
    }
    expect((await attempt(ADMIN.email, ADMIN.password, address)).status).toBe(429);
  });

  it('[A5] lets no more of a burst of parallel guesses through to the password check than the free failures', async () => {
    const burst = async (make: () => Promise<Response>) => {
      const statuses = await Promise.all(Array.from({ length: 15 }, () => make().then((r) => r.status)));
      return [statuses.filter((s) => s === 401).length, statuses.filter((s) => s === 429).length];
    };
    const email = await newAccount();
    const address = freshAddress();
    expect(await burst(() => attempt(email, 'wrong password', address))).toEqual([3, 12]);
    const sprayed = await newAccount();
    expect(await burst(() => attempt(sprayed, 'wrong password', freshAddress()))).toEqual([10, 5]);
    const owned = await newAccount();
    const owner = await ownersBrowser(owned);
    expect(await burst(() => attempt(owned, 'wrong password', freshAddress(), { cookie: owner.cookie }))).toEqual([3, 12]);
  });

  it('[A5] answers every one of many parallel sign-ins sharing accounts and addresses, right and wrong, never with an error', async () => {
    const accounts = [await newAccount(), await newAccount(), await newAccount()];
    const addresses = [freshAddress(), freshAddress(), freshAddress()];
    const owner = await ownersBrowser(accounts[0] ?? '');
    const statuses = await Promise.all(
      Array.from({ length: 45 }, (_, i) => {
        const email = accounts[i % 3] ?? '';
        const address = addresses[Math.floor(i / 3) % 3] ?? '';
        const password = i % 4 === 0 ? PASSWORD : 'wrong password';
        return attempt(email, password, address, i % 5 === 0 ? { cookie: owner.cookie } : {}).then((r) => r.status);
      }),
    );
    expect(statuses.filter((status) => ![303, 401, 429].includes(status))).toEqual([]);
    expect(statuses).toContain(303);
    expect(statuses).toContain(429);
  });

  it('[A5] refuses a form bigger than a sign-in needs with the page and 413', async () => {
    const response = await attempt('a@ranch.test', 'x'.repeat(100_000), freshAddress());
    expect(response.status).toBe(413);
    expect(await response.text()).toContain('The sign-in form was too large.');
  });

  it('[A5] keeps the counts in Postgres under hashed keys, never the typed e-mail', async () => {
    await attempt('typed-password-by-mistake@ranch.test', 'wrong password', freshAddress());
    const rows = await server.db.sql<{ key: string }[]>`select key from login_attempts`;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.key).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe.each(databaseKinds().filter((kind) => kind === 'postgres'))('[A5] device cookies on two server instances on one %s', (kind) => {
  let database: TestDatabase;
  let servers: RunningServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    for (let i = 0; i < 2; i++) {
      servers.push(await startServer({ database: database.options, port: 0, host: '127.0.0.1', admin: ADMIN }));
    }
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    servers = [];
    await database.drop();
  });

  it("[A5] share one secret, made by whichever needed it first: a cookie one signed lets the Admin in on the other while the Admin's account is sprayed", async () => {
    const [one, two] = servers as [RunningServer, RunningServer];
    const signInOn = (server: RunningServer, cookie?: string) =>
      fetch(`${server.url}/api/login`, {
        method: 'POST',
        body: new URLSearchParams({ email: ADMIN.email, password: ADMIN.password }),
        headers: cookie ? { cookie } : {},
        redirect: 'manual',
      });
    // Both instances' first need of the secret at the same moment.
    const [onOne, onTwo] = await Promise.all([signInOn(one), signInOn(two)]);
    expect([onOne.status, onTwo.status]).toEqual([303, 303]);
    const cookieOf = (response: Response) => (response.headers.getSetCookie()[1] ?? '').split(';')[0] ?? '';
    await one.db.sql`
      update login_attempts set failures = 500, next_attempt_at = now() + interval '15 minutes'
      where key = ${throttleKey('account', ADMIN.email)}`;
    expect((await signInOn(two)).status).toBe(429);
    expect((await signInOn(two, cookieOf(onOne))).status).toBe(303);
    expect((await signInOn(one, cookieOf(onTwo))).status).toBe(303);
    expect(await one.db.sql`select name from server_secrets`).toHaveLength(1);
  });
});
