import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server.ts';
import { signIn, signInAs, type ApiClient } from './support/client.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.ts';
import { ADMIN } from './support/server.ts';

const PASSWORD = 'a long enough password';
const LOCKED = /Too many failed sign-in attempts\. Try again in (\d+) minutes?\./;

describe.each(databaseKinds())('[A5] failed sign-in limits (%s)', (kind) => {
  let database: TestDatabase;
  let server: RunningServer;
  let admin: ApiClient;
  let addressCounter = 0;

  /** Behind a trusted proxy, so each test can come from addresses of its own. */
  const freshAddress = () => `198.51.100.${++addressCounter}`;

  function attempt(email: string, password: string, address: string): Promise<Response> {
    return fetch(`${server.url}/api/login`, {
      method: 'POST',
      body: new URLSearchParams({ email, password }),
      headers: { 'x-forwarded-for': address },
      redirect: 'manual',
    });
  }

  async function newAccount(): Promise<string> {
    const session = await signInAs(server.url, admin, 'Staff');
    const me = await (await session.request('/api/auth/user')).json();
    return me.email;
  }

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    server = await startServer({ database: database.options, port: 0, host: '127.0.0.1', admin: ADMIN, trustProxy: true });
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await server.close();
    await database.drop();
  });

  it('refuses an account after 5 failures, right password included, with the page, a message and Retry-After', async () => {
    const email = await newAccount();
    for (let i = 0; i < 5; i++) {
      // A new address each time: the account's own count is what stops this.
      const response = await attempt(email, 'wrong password', freshAddress());
      expect(response.status).toBe(401);
      expect(await response.text()).toContain('Invalid email or password.');
    }
    const locked = await attempt(email, PASSWORD, freshAddress());
    expect(locked.status).toBe(429);
    expect(locked.headers.get('set-cookie')).toBeNull();
    expect(locked.headers.get('content-type')).toMatch(/^text\/html/);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    const page = await locked.text();
    expect(page).toMatch(LOCKED);
    expect(page).toContain('Try again in 15 minutes.');
    // Still a working form without JavaScript, with what was typed kept.
    expect(page).toMatch(/<form method="post" action="\/api\/login">/);
    expect(page).toContain(`value="${email}"`);
  });

  it('lets the account in again once its window is over', async () => {
    const email = await newAccount();
    for (let i = 0; i < 5; i++) await attempt(email, 'wrong password', freshAddress());
    expect((await attempt(email, PASSWORD, freshAddress())).status).toBe(429);
    await server.db.sql`update login_attempts set window_started_at = now() - interval '15 minutes 1 second'`;
    expect((await attempt(email, PASSWORD, freshAddress())).status).toBe(303);
  });

  it('says "1 minute" when less than a minute is left', async () => {
    const email = await newAccount();
    for (let i = 0; i < 5; i++) await attempt(email, 'wrong password', freshAddress());
    await server.db.sql`update login_attempts set window_started_at = now() - interval '14 minutes 30 seconds'`;
    const locked = await attempt(email, PASSWORD, freshAddress());
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    expect(await locked.text()).toContain('Try again in 1 minute.');
  });

  it("clears the account's count on a successful sign-in", async () => {
    const email = await newAccount();
    const address = freshAddress();
    for (let i = 0; i < 4; i++) expect((await attempt(email, 'wrong password', address)).status).toBe(401);
    expect((await attempt(email, PASSWORD, address)).status).toBe(303);
    for (let i = 0; i < 5; i++) expect((await attempt(email, 'wrong password', address)).status).toBe(401);
    expect((await attempt(email, 'wrong password', address)).status).toBe(429);
  });

  it('treats unknown accounts exactly like known ones', async () => {
    const known = await newAccount();
    const answers: string[] = [];
    for (const email of [known, 'nobody-here@ranch.test']) {
      for (let i = 0; i < 5; i++) await attempt(email, 'wrong password', freshAddress());
      const locked = await attempt(email, 'wrong password', freshAddress());
      answers.push(`${locked.status} ${(await locked.text()).match(LOCKED)?.[0]}`);
    }
    expect(answers[0]).toBe('429 Too many failed sign-in attempts. Try again in 15 minutes.');
    expect(answers[1]).toBe(answers[0]);
  });

  it('refuses an address after 20 failures, whichever accounts it tried, and not other addresses', async () => {
    const address = freshAddress();
    for (let i = 0; i < 20; i++) {
      expect((await attempt(`guess${i}@ranch.test`, 'wrong password', address)).status).toBe(401);
    }
    const locked = await attempt(ADMIN.email, ADMIN.password, address);
    expect(locked.status).toBe(429);
    expect(await locked.text()).toMatch(LOCKED);
    expect((await attempt(ADMIN.email, ADMIN.password, freshAddress())).status).toBe(303);
  });

  it('counts malformed sign-ins against the address', async () => {
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

  it('lets no more than 5 of a burst of parallel guesses through to the password check', async () => {
    const email = await newAccount();
    const statuses = await Promise.all(
      Array.from({ length: 15 }, () => attempt(email, 'wrong password', freshAddress()).then((r) => r.status)),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });

  it('refuses a form bigger than a sign-in needs with the page and 413', async () => {
    const response = await attempt('a@ranch.test', 'x'.repeat(100_000), freshAddress());
    expect(response.status).toBe(413);
    expect(await response.text()).toContain('The sign-in form was too large.');
  });

  it('keeps the counts in Postgres under hashed keys, never the typed e-mail', async () => {
    await attempt('typed-password-by-mistake@ranch.test', 'wrong password', freshAddress());
    const rows = await server.db.sql<{ key: string }[]>`select key from login_attempts`;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.key).toMatch(/^[0-9a-f]{64}$/);
  });
});
