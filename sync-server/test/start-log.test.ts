import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/databases.ts';
import { spawnServer } from './support/server-process.ts';
import { ADMIN } from './support/server.ts';

const SETTINGS = { RANCH_ADMIN_EMAIL: ADMIN.email, RANCH_ADMIN_PASSWORD: ADMIN.password };

/** What `npm start` tells the operator about the admin settings and the proxy ([A9], [A8]). */
describe('the start-up log', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterAll(() => database?.drop());

  /** What a start writes once it has said `last` (then it is stopped). */
  async function startLog(env: Record<string, string>, last: RegExp): Promise<string> {
    const server = await spawnServer(database, env);
    try {
      await expect.poll(() => server.output(), { timeout: 15_000 }).toMatch(last);
      return server.output();
    } finally {
      await server.kill('SIGTERM');
    }
  }
  const ADMIN_LINE = /Admin account|RANCH_ADMIN/;
  const PROXY_LINE = /believed only from .*\n/;
  const OPEN_PORT_LINE = /HOST is .*\n/;

  it('[A9] says the settings created the account, then that they leave it alone, and a reset loudly, once', async () => {
    expect(await startLog(SETTINGS, ADMIN_LINE)).toContain(`Admin account ${ADMIN.email}: created.`);
    expect(await startLog(SETTINGS, ADMIN_LINE)).toMatch(
      /exists; its password is its owner's \(RANCH_ADMIN_PASSWORD applies only when it is created/,
    );
    expect(await startLog({ ...SETTINGS, RANCH_ADMIN_RESET: '1' }, ADMIN_LINE)).toMatch(
      /\*\*\* RANCH_ADMIN_RESET=1: the admin account .* now has the password of the settings, is an Admin, and every one of its sessions ended/,
    );
    expect(await startLog({ ...SETTINGS, RANCH_ADMIN_RESET: '1' }, ADMIN_LINE)).toMatch(
      /\*\*\* RANCH_ADMIN_RESET=1 is still set, but this password was applied/,
    );
  }, 120_000);

  it('[A8] names the trusted proxies, and warns when the port is open beyond this machine (N7)', async () => {
    const local = await startLog({ RANCH_TRUST_PROXY: '1' }, PROXY_LINE);
    expect(local).toContain('X-Forwarded-For and X-Forwarded-Proto are believed only from 127.0.0.0/8, ::1.');
    expect(local).not.toContain('clients can reach the server directly');
    const open = await startLog({ RANCH_TRUSTED_PROXIES: '10.0.0.5', HOST: '0.0.0.0' }, OPEN_PORT_LINE);
    expect(open).toContain('HOST is 0.0.0.0: clients can reach the server directly, not only through the proxy.');
  }, 60_000);
});
