import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';

type ApiUser = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
};

describe.each(databaseKinds())('users, roles and profiles (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let adminId: string;

  async function me(as: ApiClient): Promise<ApiUser> {
    return (await as.request('/api/auth/user')).json();
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    adminId = (await me(admin)).id;
  });
  afterAll(() => server.destroy());

  it('[U6] [R4] lists every user with their fields, oldest first, for Admins only', async () => {
    const staff = await signInAs(server.url, admin, 'Staff');
    const viewer = await signInAs(server.url, admin, 'Viewer');
    const response = await admin.request('/api/users');
    expect(response.status).toBe(200);
    const users: ApiUser[] = await response.json();
    expect(users[0]?.email).toBe(ADMIN.email);
    expect(users.map((u) => u.id)).toEqual(expect.arrayContaining([(await me(staff)).id, (await me(viewer)).id]));
    const created = users.map((u) => u.createdAt);
    expect(created).toEqual([...created].sort());
    for (const user of users) {
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
      expect(user).not.toHaveProperty('passwordHash');
    }
    expect((await staff.request('/api/users')).status).toBe(403);
    expect((await viewer.request('/api/users')).status).toBe(403);
    expect((await client(server.url, '').request('/api/users')).status).toBe(401);
  });

  it("[U4] changes another user's role, and the change applies to their open session at once", async () => {
    const staff = await signInAs(server.url, admin, 'Staff');
    const staffId = (await me(staff)).id;
    expect((await staff.request('/api/breeds', { method: 'POST', json: { name: 'Appaloosa' } })).status).toBe(201);

    const changed = await admin.request(`/api/users/${staffId}/role`, { method: 'PUT', json: { role: 'Viewer' } });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ id: staffId, role: 'Viewer' });

    // Same session, no re-login: now a Viewer.
    expect((await me(staff)).role).toBe('Viewer');
    const write = await staff.request('/api/breeds', { method: 'POST', json: { name: 'Friesian' } });
    expect(write.status).toBe(403);

    await admin.request(`/api/users/${staffId}/role`, { method: 'PUT', json: { role: 'Admin' } });
    expect((await staff.request('/api/users')).status).toBe(200);
  });

  it('[R5] never lets an Admin change their own role', async () => {
    const response = await admin.request(`/api/users/${adminId}/role`, { method: 'PUT', json: { role: 'Viewer' } });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'You cannot change your own role.' });
    expect((await me(admin)).role).toBe('Admin');
  });

  it('[U4] [R4] accepts only Admin, Staff and Viewer (400), known users (404), and Admins (403)', async () => {
    const staff = await signInAs(server.url, admin, 'Staff');
    const staffId = (await me(staff)).id;
    for (const json of [{ role: 'Owner' }, { role: 'admin' }, { role: '' }, {}, { role: null }, { role: ['Admin'] }]) {
      const response = await admin.request(`/api/users/${staffId}/role`, { method: 'PUT', json });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe('role: Role must be Admin, Staff or Viewer');
    }
    for (const id of ['0190f0a0-0000-7000-8000-000000000000', 'not-a-uuid', "1'; drop table users; --"]) {
      const response = await admin.request(`/api/users/${encodeURIComponent(id)}/role`, { method: 'PUT', json: { role: 'Staff' } });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: 'No such user.' });
    }
    const byStaff = await staff.request(`/api/users/${adminId}/role`, { method: 'PUT', json: { role: 'Viewer' } });
    expect(byStaff.status).toBe(403);
    expect((await me(admin)).role).toBe('Admin');
  });

  it('[R3] [U8] lets any signed-in user, Viewer included, update their names and e-mail, and nothing else', async () => {
    const viewer = await signInAs(server.url, admin, 'Viewer');
    const before = await me(viewer);
    const response = await viewer.request('/api/auth/user', {
      method: 'PUT',
      json: {
        firstName: ' Vera ',
        lastName: 'Watcher',
        email: 'Vera.Watcher@Ranch.test',
        currentPassword: 'a long enough password',
        role: 'Admin',
        id: adminId,
        createdAt: '2000-01-01T00:00:00Z',
      },
    });
    expect(response.status).toBe(200);
    const after: ApiUser = await response.json();
    expect(after).toMatchObject({
      id: before.id,
      firstName: 'Vera',
      lastName: 'Watcher',
      email: 'vera.watcher@ranch.test',
      role: 'Viewer',
      createdAt: before.createdAt,
    });
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(await me(viewer)).toEqual(after);
    expect((await me(admin)).role).toBe('Admin');

    // The new e-mail is the one to sign in with.
    const again = await signIn(server.url, 'vera.watcher@ranch.test', 'a long enough password');
    expect((await me(again)).id).toBe(before.id);
  });

  it('[U8] refuses invalid profiles with their messages', async () => {
    const staff = await signInAs(server.url, admin, 'Staff');
    const cases: [unknown, string][] = [
      [{ firstName: '', lastName: 'L', email: 'a@ranch.test' }, 'firstName: First name is required'],
      [{ firstName: 'F', lastName: '  ', email: 'a@ranch.test' }, 'lastName: Last name is required'],
      [{ firstName: 'F', lastName: 'L', email: 'not an email' }, 'email: Please enter a valid email address'],
      [{ firstName: 'F', lastName: 'L' }, 'email: Please enter a valid email address'],
      [{ firstName: 'F'.repeat(500), lastName: 'L', email: 'a@ranch.test' }, 'firstName: Must be at most 120 characters'],
    ];
    for (const [json, message] of cases) {
      const response = await staff.request('/api/auth/user', { method: 'PUT', json });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(message);
    }
    const malformed = await staff.request('/api/auth/user', {
      method: 'PUT',
      body: '{"firstName":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ message: 'Malformed JSON in request body' });
  });

  it("[U8] refuses an e-mail that another account has (409) but keeps one's own", async () => {
    const staff = await signInAs(server.url, admin, 'Staff');
    const own = await me(staff);
    const taken = await staff.request('/api/auth/user', {
      method: 'PUT',
      json: { firstName: 'S', lastName: 'T', email: ADMIN.email.toUpperCase(), currentPassword: 'a long enough password' },
    });
    expect(taken.status).toBe(409);
    expect((await taken.json()).message).toMatch(/already exists/);
    expect((await me(staff)).email).toBe(own.email);
    const same = await staff.request('/api/auth/user', { method: 'PUT', json: { firstName: 'S', lastName: 'T', email: own.email } });
    expect(same.status).toBe(200);
  });

  it('[A1] needs a session to update a profile (401)', async () => {
    const response = await client(server.url, '').request('/api/auth/user', {
      method: 'PUT',
      json: { firstName: 'A', lastName: 'B', email: 'a@ranch.test' },
    });
    expect(response.status).toBe(401);
  });
});
