import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../src/auth/users.ts';
import { client, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';

/**
 * The admin bootstrap (RANCH_ADMIN_EMAIL/RANCH_ADMIN_PASSWORD) creates the account once;
 * RANCH_ADMIN_RESET=1 resets the account it created, found by its mark and never by its e-mail.
 */
describe.each(databaseKinds())('[A9] the admin bootstrap cannot be claimed by another account (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => server?.destroy());

  const role = async (client: ApiClient) => ((await (await client.request('/api/auth/user')).json()) as { role: string }).role;
  // A new e-mail needs the current password ([U15]).
  const profile = (client: ApiClient, email: string, currentPassword: string) =>
    client.request('/api/auth/user', { method: 'PUT', json: { firstName: 'Some', lastName: 'One', email, currentPassword } });

  it('a Staff member who takes the address the Admin left is not made Admin at the next start', async () => {
    const staff = await signInAs(server.url, admin, 'Staff');
    expect((await profile(admin, 'owner@ranch.test', ADMIN.password)).status).toBe(200);
    expect((await profile(staff, ADMIN.email, 'a long enough password')).status).toBe(200);

    server = await server.restart();
    // The restarted server listens on a new port; the sessions are the same.
    const staffNow = client(server.url, staff.cookie);
    admin = client(server.url, admin.cookie);
    expect(server.admin?.outcome).toBe('kept');
    expect(await role(staffNow)).toBe('Staff');
    expect((await staffNow.request('/api/users')).status).toBe(403);
    // The Admin kept their new address, their role, the bootstrap password and their session.
    expect(await role(admin)).toBe('Admin');
    expect(await role(await signIn(server.url, 'owner@ranch.test', ADMIN.password))).toBe('Admin');
  });

  it('[A9] the owner’s own password change survives a restart with RANCH_ADMIN_PASSWORD still set', async () => {
    const owner = await signIn(server.url, 'owner@ranch.test', ADMIN.password);
    const change = await owner.request('/api/auth/password', {
      method: 'PUT',
      json: { currentPassword: ADMIN.password, newPassword: 'the owner’s own secret' },
    });
    expect(change.status).toBe(204);

    server = await server.restart();
    expect(server.admin).toEqual({ outcome: 'kept', email: 'owner@ranch.test' });
    expect((await client(server.url, owner.cookie).request('/api/auth/user')).status).toBe(200);
    expect(await role(await signIn(server.url, 'owner@ranch.test', 'the owner’s own secret'))).toBe('Admin');
    await expect(signIn(server.url, 'owner@ranch.test', ADMIN.password)).rejects.toThrow(/401/);
  });

  it('[A9] RANCH_ADMIN_RESET=1 sets the password once, makes the account Admin again and ends its sessions', async () => {
    const before = await signIn(server.url, 'owner@ranch.test', 'the owner’s own secret');
    const other = await signInAs(server.url, before, 'Admin');
    const ownerId = ((await (await before.request('/api/auth/user')).json()) as { id: string }).id;
    expect((await other.request(`/api/users/${ownerId}/role`, { method: 'PUT', json: { role: 'Viewer' } })).status).toBe(200);

    server = await server.restart({ admin: { ...ADMIN, reset: true } });
    expect(server.admin).toEqual({ outcome: 'reset', email: 'owner@ranch.test' });
    expect((await client(server.url, before.cookie).request('/api/auth/user')).status).toBe(401);
    const owner = await signIn(server.url, 'owner@ranch.test', ADMIN.password);
    expect(await role(owner)).toBe('Admin');

    // A reset flag left in the settings does not undo the owner's next change.
    expect(
      (
        await owner.request('/api/auth/password', {
          method: 'PUT',
          json: { currentPassword: ADMIN.password, newPassword: 'a brand new password' },
        })
      ).status,
    ).toBe(204);
    server = await server.restart({ admin: { ...ADMIN, reset: true } });
    expect(server.admin).toEqual({ outcome: 'reset-before', email: 'owner@ranch.test' });
    expect((await client(server.url, owner.cookie).request('/api/auth/user')).status).toBe(200);
    expect(await role(await signIn(server.url, 'owner@ranch.test', 'a brand new password'))).toBe('Admin');
    server = await server.restart({});
  });

  it('a database from before the mark adopts the account with the address only if it is an Admin', async () => {
    await server.db.sql`update users set is_bootstrap = false`;
    const owner = await signIn(server.url, 'owner@ranch.test', 'a brand new password');
    const staff = await signInAs(server.url, owner, 'Staff');
    const staffEmail = ((await (await staff.request('/api/auth/user')).json()) as { email: string }).email;
    expect(await ensureAdmin(server.db.sql, { email: staffEmail, password: 'whatever it is' })).toEqual({
      outcome: 'refused',
      email: staffEmail,
    });
    expect(await role(staff)).toBe('Staff');
    expect(await ensureAdmin(server.db.sql, { email: 'owner@ranch.test', password: 'not applied' })).toEqual({
      outcome: 'adopted',
      email: 'owner@ranch.test',
    });
    expect((await server.db.sql`select count(*)::int as n from users where is_bootstrap`)[0]?.n).toBe(1);
    // Adopting changes no password.
    expect(await role(await signIn(server.url, 'owner@ranch.test', 'a brand new password'))).toBe('Admin');
  });
});
