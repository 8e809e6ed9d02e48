import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';

/** The stored id of a client's session: the SHA-256 of its cookie's token (auth/sessions.ts). */
const sessionId = (as: ApiClient) => createHash('sha256').update(as.cookie.split('=')[1]!).digest('hex');

type ApiUser = { id: string; email: string; role: string; isActive: boolean };
type ErrorBody = { message: string; issues?: { path: string; message: string }[] };

const CONFIRM = { path: 'currentPassword', message: 'Enter your password to confirm this change.' };
const WRONG = { path: 'currentPassword', message: 'Current password is incorrect.' };

/**
 * [U16] An Admin session left open (signed in more than a few minutes ago) cannot create an
 * Admin, reset another's password, or change a role or whether an account is active without
 * the password; a right one opens the few minutes again.
 */
describe.each(databaseKinds())('[U16] Admin account changes need a recent sign-in (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let staff: ApiUser;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    const staffClient = await signInAs(server.url, admin, 'Staff');
    staff = (await (await staffClient.request('/api/auth/user')).json()) as ApiUser;
  });
  afterAll(() => server?.destroy());

  /** As if the session had signed in ten minutes ago. */
  const leftOpen = (as: ApiClient) =>
    server.db.sql`update sessions set authenticated_at = now() - interval '10 minutes' where id = ${sessionId(as)}`;
  const listed = async (userId: string) => ((await (await admin.request('/api/users')).json()) as ApiUser[]).find((u) => u.id === userId);
  const issues = async (response: Response) => ((await response.json()) as ErrorBody).issues;

  const actions = (currentPassword?: string) => ({
    createAdmin: () =>
      admin.request('/api/users', {
        method: 'POST',
        json: {
          email: `admin-${Math.random()}@ranch.test`,
          firstName: 'New',
          lastName: 'Admin',
          role: 'Admin',
          password: 'a long password',
          currentPassword,
        },
      }),
    role: () => admin.request(`/api/users/${staff.id}/role`, { method: 'PUT', json: { role: 'Viewer', currentPassword } }),
    deactivate: () => admin.request(`/api/users/${staff.id}`, { method: 'PATCH', json: { isActive: false, currentPassword } }),
    reset: () =>
      admin.request(`/api/users/${staff.id}/password`, { method: 'PUT', json: { password: 'a reset password', currentPassword } }),
  });

  it('a session left open gets 400 on currentPassword for each, and nothing changes; a Staff account needs none', async () => {
    await leftOpen(admin);
    for (const [name, request] of Object.entries(actions())) {
      const response = await request();
      expect(response.status, name).toBe(400);
      expect(await issues(response), name).toEqual([CONFIRM]);
    }
    for (const [name, request] of Object.entries(actions('not my password'))) {
      const response = await request();
      expect(response.status, name).toBe(400);
      expect(await issues(response), name).toEqual([WRONG]);
    }
    expect(await listed(staff.id)).toMatchObject({ role: 'Staff', isActive: true });
    expect(((await (await admin.request('/api/users')).json()) as ApiUser[]).filter((u) => u.role === 'Admin')).toHaveLength(1);
    await signIn(server.url, staff.email, 'a long enough password');
    // Creating a Staff or Viewer account is not one of them.
    const plain = await admin.request('/api/users', {
      method: 'POST',
      json: { email: 'plain@ranch.test', firstName: 'Plain', lastName: 'Staff', role: 'Staff', password: 'a long password' },
    });
    expect(plain.status).toBe(201);
  });

  it('the right password lets the change through and opens the next few minutes', async () => {
    await leftOpen(admin);
    expect((await actions(ADMIN.password).role()).status).toBe(200);
    expect(await listed(staff.id)).toMatchObject({ role: 'Viewer' });
    // The password just given counts as a recent sign-in.
    expect((await actions().deactivate()).status).toBe(200);
    expect((await actions().reset()).status).toBe(204);
    expect((await actions().createAdmin()).status).toBe(201);
  });

  it('a fresh sign-in needs no password', async () => {
    const fresh = await signIn(server.url, ADMIN.email, ADMIN.password);
    const response = await fresh.request(`/api/users/${staff.id}`, { method: 'PATCH', json: { isActive: true } });
    expect(response.status).toBe(200);
  });

  it('the fifth wrong password ends the session (401), as for the own password', async () => {
    const other = await signIn(server.url, ADMIN.email, ADMIN.password);
    await leftOpen(other);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await other.request(`/api/users/${staff.id}/role`, { method: 'PUT', json: { role: 'Staff', currentPassword: 'guess' } })).status,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 401]);
    expect((await other.request('/api/auth/user')).status).toBe(401);
    expect(await listed(staff.id)).toMatchObject({ role: 'Viewer' });
  });
});
