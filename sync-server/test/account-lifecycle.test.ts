import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as decoding from 'lib0/decoding';
import { CloseCode, MESSAGE_ACCESS, MESSAGE_ACK } from '../../shared/index.ts';
import { createSession, generateSessionToken, purgeEndedSessions } from '../src/auth/sessions.ts';
import { ensureAdmin } from '../src/auth/users.ts';
import type { RunningServer } from '../src/server.ts';
import type { Subscriber } from '../src/sync/subscriber.ts';
import { client, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { startTwoInstances } from './support/two-instances.ts';
import { openSyncSocket, type SyncSocket } from './support/sync-socket.ts';
import { connectDevice, whenSynced, type Device } from './support/sync-client.ts';

/** The access messages ([U4]: 0 may write, 1 read-only) a device that asked for them receives. */
function accessOf(device: Device): Device & { access: number[] } {
  const access: number[] = [];
  device.provider.messageHandlers[MESSAGE_ACK] = () => {};
  device.provider.messageHandlers[MESSAGE_ACCESS] = (_encoder, decoder) => {
    access.push(decoding.readVarUint(decoder));
  };
  return Object.assign(device, { access });
}

const PASSWORD = 'a long enough password';

/** The stored id of a client's session: the SHA-256 of its cookie's token (auth/sessions.ts). */
const sessionId = (as: ApiClient) => createHash('sha256').update(as.cookie.split('=')[1]!).digest('hex');

type ApiUser = { id: string; email: string; role: string; isActive: boolean };

async function me(as: ApiClient): Promise<ApiUser> {
  return (await as.request('/api/auth/user')).json();
}

/** A sign-in attempt: its status and the error the sign-in page shows. */
async function signInAttempt(baseUrl: string, email: string, password: string): Promise<{ status: number; error: string | undefined }> {
  const response = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    body: new URLSearchParams({ email, password }),
    redirect: 'manual',
  });
  const page = await response.text();
  return { status: response.status, error: /role="alert"[^>]*>([^<]*)</.exec(page)?.[1] };
}

const sockets: SyncSocket[] = [];
async function socketOf(baseUrl: string, as: ApiClient): Promise<SyncSocket> {
  const socket = await openSyncSocket(baseUrl, as.cookie);
  sockets.push(socket);
  return socket;
}
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

describe.each(databaseKinds())('accounts an Admin deactivates and resets (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let adminId: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    adminId = (await me(admin)).id;
  });
  afterAll(() => server?.destroy());

  const setActive = (as: ApiClient, userId: string, isActive: unknown) =>
    as.request(`/api/users/${encodeURIComponent(userId)}`, { method: 'PATCH', json: { isActive } });
  const listed = async (userId: string) => ((await (await admin.request('/api/users')).json()) as ApiUser[]).find((u) => u.id === userId);

  it('[U11] deactivating ends every session and socket of the user, refuses their sign-in like a wrong password, and lists them inactive', async () => {
    const staff = await signInAs(server.url, admin, 'Staff');
    const { id, email } = await me(staff);
    const phone = await signIn(server.url, email, PASSWORD);
    const socket = await socketOf(server.url, phone);
    expect((await listed(id))?.isActive).toBe(true);

    const response = await setActive(admin, id, false);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id, email, isActive: false });
    expect((await staff.request('/api/auth/user')).status).toBe(401);
    expect((await phone.request('/api/horses')).status).toBe(401);
    await expect.poll(() => socket.closeCode()).toBe(CloseCode.Unauthorized);
    expect((await listed(id))?.isActive).toBe(false);

    // The same answer as a wrong password: nothing says the account exists but is inactive.
    expect(await signInAttempt(server.url, email, PASSWORD)).toEqual({ status: 401, error: 'Invalid email or password.' });
    expect(await signInAttempt(server.url, email, 'not the password')).toEqual({ status: 401, error: 'Invalid email or password.' });
    await expect(openSyncSocket(server.url, phone.cookie)).rejects.toThrow(String(CloseCode.Unauthorized));
  });

  it('[U11] a session of an inactive account never validates, even one that escaped the deletion', async () => {
    const staff = await signInAs(server.url, admin, 'Staff');
    const { id } = await me(staff);
    expect((await setActive(admin, id, false)).status).toBe(200);
    const token = generateSessionToken();
    await createSession(server.db.sql, token, id);
    expect((await client(server.url, `ranch_session=${token}`).request('/api/auth/user')).status).toBe(401);
    await expect(openSyncSocket(server.url, `ranch_session=${token}`)).rejects.toThrow(String(CloseCode.Unauthorized));
  });

  it('[U11] [A8] the periodic check closes open sockets whose session ended unannounced, expired or lost its account', async () => {
    const [deleted, expired, deactivated, kept] = await Promise.all(
      (['Staff', 'Staff', 'Staff', 'Viewer'] as const).map((role) => signInAs(server.url, admin, role)),
    );
    const opened = vi.spyOn(server.registry, 'checkConnection');
    const sockets = await Promise.all([deleted, expired, deactivated, kept].map((as) => socketOf(server.url, as!)));
    // Each socket's own check on opening has read its session: what follows is the periodic check's.
    await Promise.all(opened.mock.results.map((result) => result.value));
    opened.mockRestore();
    // Behind the server's back, so no access event is announced: as when one was lost.
    const sql = server.db.sql;
    await sql`delete from sessions where id = ${sessionId(deleted!)}`;
    await sql`update sessions set expires_at = now() - interval '1 second' where id = ${sessionId(expired!)}`;
    await sql`update users set is_active = false where id = (select user_id from sessions where id = ${sessionId(deactivated!)})`;
    expect(sockets.map((socket) => socket.closeCode())).toEqual([undefined, undefined, undefined, undefined]);

    // The three that ended, and not the Viewer's, whose session is fine.
    expect(await server.registry.checkSessions()).toBe(3);
    await expect
      .poll(() => sockets.map((socket) => socket.closeCode()))
      .toEqual([CloseCode.Unauthorized, CloseCode.Unauthorized, CloseCode.Unauthorized, undefined]);
  });

  it('[U4] the periodic check applies a role changed without an announcement, both ways', async () => {
    const rider = await signInAs(server.url, admin, 'Staff');
    const riderId = (await me(rider)).id;
    const device = accessOf(connectDevice(server.url, rider.cookie, { params: { ack: '1' } }));
    await whenSynced(device);
    await expect.poll(() => device.access).toEqual([0]);
    // Behind the server's back, as when the access event was lost on this instance.
    await server.db.sql`update users set role = 'Viewer' where id = ${riderId}`;
    expect(await server.registry.checkSessions()).toBe(0);
    await expect.poll(() => device.access).toEqual([0, 1]);
    await server.db.sql`update users set role = 'Staff' where id = ${riderId}`;
    await server.registry.checkSessions();
    await expect.poll(() => device.access).toEqual([0, 1, 0]);
    device.destroy();
  });

  it('[U4] a socket just opened has its role read again: a change since the upgrade applies at once', async () => {
    const rider = await signInAs(server.url, admin, 'Staff');
    const riderId = (await me(rider)).id;
    const [session] = await server.db.sql<{ id: string }[]>`select id from sessions where user_id = ${riderId}`;
    const seen: boolean[] = [];
    const closed: string[] = [];
    const opened = {
      id: -1,
      userId: riderId,
      sessionId: session!.id,
      setCanWrite: (w: boolean) => seen.push(w),
      closeSignedOut: () => closed.push('4401'),
    };
    await server.db.sql`update users set role = 'Viewer' where id = ${riderId}`;
    await server.registry.checkConnection(opened as unknown as Subscriber);
    expect(seen).toEqual([false]);
    await server.db.sql`delete from sessions where id = ${session!.id}`;
    await server.registry.checkConnection(opened as unknown as Subscriber);
    expect(closed).toEqual(['4401']);
  });

  it('[A8] a session ends 30 days after its sign-in however it is used; ended sessions are purged', async () => {
    const [old, young, idle] = await Promise.all(['Viewer', 'Viewer', 'Viewer'].map(() => signInAs(server.url, admin, 'Viewer')));
    const sql = server.db.sql;
    // Used every day (its expiry slid forward), but signed in 31 days ago.
    await sql`update sessions set created_at = now() - interval '31 days', expires_at = now() + interval '20 days' where id = ${sessionId(old!)}`;
    // Signed in 29 days ago: renewing gives it at most the day it has left.
    await sql`update sessions set created_at = now() - interval '29 days', expires_at = now() + interval '1 day' where id = ${sessionId(young!)}`;
    await sql`update sessions set expires_at = now() - interval '1 second' where id = ${sessionId(idle!)}`;
    expect((await old!.request('/api/auth/user')).status).toBe(401);
    expect((await young!.request('/api/auth/user')).status).toBe(200);
    const [row] = await sql<{ days: number }[]>`
      select extract(epoch from expires_at - created_at) / 86400 as days from sessions where id = ${sessionId(young!)}`;
    expect(Number(row?.days)).toBeLessThanOrEqual(30.001);

    await sql`update sessions set created_at = now() - interval '31 days' where id = ${sessionId(young!)}`;
    expect(await purgeEndedSessions(sql)).toBeGreaterThanOrEqual(2);
    const ids = [sessionId(young!), sessionId(idle!)];
    expect(await sql`select id from sessions where id = any(${ids})`).toHaveLength(0);
    expect(await sql`select id from sessions where expires_at <= now() or created_at <= now() - interval '30 days'`).toHaveLength(0);
    expect((await admin.request('/api/auth/user')).status).toBe(200);
  });

  it('[U11] reactivating lets the user sign in again with their password, with the role they had', async () => {
    const viewer = await signInAs(server.url, admin, 'Viewer');
    const { id, email } = await me(viewer);
    expect((await setActive(admin, id, false)).status).toBe(200);
    const response = await setActive(admin, id, true);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id, isActive: true, role: 'Viewer' });
    expect((await listed(id))?.isActive).toBe(true);
    expect((await me(await signIn(server.url, email, PASSWORD))).role).toBe('Viewer');
  });

  it('[U11] [R5] an Admin cannot deactivate themselves; only Admins may (403); unknown ids are 404, anything but a boolean 400', async () => {
    const own = await setActive(admin, adminId, false);
    expect(own.status).toBe(403);
    expect(await own.json()).toEqual({ message: 'You cannot deactivate or reactivate your own account.' });
    expect((await me(admin)).isActive).toBe(true);

    const staff = await signInAs(server.url, admin, 'Staff');
    const viewer = await signInAs(server.url, admin, 'Viewer');
    for (const actor of [staff, viewer]) {
      const byNonAdmin = await setActive(actor, adminId, false);
      expect(byNonAdmin.status).toBe(403);
    }
    expect((await client(server.url, '').request(`/api/users/${adminId}`, { method: 'PATCH', json: { isActive: false } })).status).toBe(
      401,
    );

    for (const id of ['0190f0a0-0000-7000-8000-000000000000', 'not-a-uuid', "1'; drop table users; --"]) {
      const response = await setActive(admin, id, false);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: 'No such user.' });
    }
    const { id } = await me(staff);
    for (const value of ['false', 0, null, undefined, [], {}]) {
      const response = await setActive(admin, id, value);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe('isActive: isActive must be true or false');
    }
    expect((await me(staff)).isActive).toBe(true);
  });

  it('[U11] two Admins deactivating each other at the same moment leave one of them active', async () => {
    for (let round = 0; round < 4; round++) {
      const one = await signInAs(server.url, admin, 'Admin');
      const two = await signInAs(server.url, admin, 'Admin');
      const [oneId, twoId] = [(await me(one)).id, (await me(two)).id];
      const answers = await Promise.all([setActive(one, twoId, false), setActive(two, oneId, false)]);
      expect(answers.map((answer) => answer.status).filter((status) => status === 200)).toHaveLength(1);
      expect([await listed(oneId), await listed(twoId)].filter((user) => user?.isActive)).toHaveLength(1);
    }
  });

  it('[U12] resetting a password ends every session and socket of the user; the new password signs in, the old one no longer', async () => {
    const staff = await signInAs(server.url, admin, 'Staff');
    const { id, email } = await me(staff);
    const socket = await socketOf(server.url, staff);

    const response = await admin.request(`/api/users/${id}/password`, { method: 'PUT', json: { password: 'a brand new password' } });
    expect(response.status).toBe(204);
    expect((await staff.request('/api/auth/user')).status).toBe(401);
    await expect.poll(() => socket.closeCode()).toBe(CloseCode.Unauthorized);
    expect((await signInAttempt(server.url, email, PASSWORD)).status).toBe(401);
    expect((await me(await signIn(server.url, email, 'a brand new password'))).id).toBe(id);
    expect((await me(admin)).id).toBe(adminId);
  });

  it('[U12] a reset needs a valid password (400), a known other user (404, 403 for oneself) and an Admin (403)', async () => {
    const staff = await signInAs(server.url, admin, 'Staff');
    const { id, email } = await me(staff);
    const reset = (as: ApiClient, userId: string, json: unknown) =>
      as.request(`/api/users/${encodeURIComponent(userId)}/password`, { method: 'PUT', json });
    const cases: [unknown, string][] = [
      [{ password: 'short' }, 'password: Password must be at least 8 characters'],
      [{ password: 'x'.repeat(1025) }, 'password: Password must be at most 1024 characters'],
      [{}, 'password: Password is required'],
      [{ password: 12345678 }, 'password: Password is required'],
    ];
    for (const [json, message] of cases) {
      const response = await reset(admin, id, json);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(message);
    }
    const own = await reset(admin, adminId, { password: 'a brand new password' });
    expect(own.status).toBe(403);
    expect((await own.json()).message).toMatch(/change it in your profile/);
    for (const unknown of ['0190f0a0-0000-7000-8000-000000000000', 'nope']) {
      expect((await reset(admin, unknown, { password: 'a brand new password' })).status).toBe(404);
    }
    expect((await reset(staff, adminId, { password: 'a brand new password' })).status).toBe(403);
    // Nothing changed: both still sign in with their passwords.
    expect((await me(await signIn(server.url, email, PASSWORD))).id).toBe(id);
    expect((await me(await signIn(server.url, ADMIN.email, ADMIN.password))).id).toBe(adminId);
  });

  it('[U11] [A9] the admin account of the settings, once deactivated, stays so at the next start', async () => {
    const other = await signInAs(server.url, admin, 'Admin');
    expect((await setActive(other, adminId, false)).status).toBe(200);
    expect(await ensureAdmin(server.db.sql, ADMIN)).toEqual({ outcome: 'inactive', email: ADMIN.email });
    expect(await ensureAdmin(server.db.sql, { ...ADMIN, reset: true })).toEqual({ outcome: 'inactive', email: ADMIN.email });
    expect((await signInAttempt(server.url, ADMIN.email, ADMIN.password)).status).toBe(401);
    expect((await setActive(other, adminId, true)).status).toBe(200);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    expect(await ensureAdmin(server.db.sql, ADMIN)).toEqual({ outcome: 'kept', email: ADMIN.email });
  });
});

// Instances share Postgres, never PGlite (one session), so these run where DATABASE_URL is set.
describe.each(databaseKinds().filter((kind) => kind === 'postgres'))('[U11] [U12] access taken away on two instances (%s)', (kind) => {
  let one: RunningServer;
  let two: RunningServer;
  let admin: ApiClient;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ one, two, admin, stop } = await startTwoInstances(kind));
  });
  afterAll(async () => {
    await stop?.();
  });

  it('[U11] deactivating through one instance closes the user’s sockets on the other with 4401 at once', async () => {
    const staff = await signInAs(one.url, admin, 'Staff');
    const { id } = await me(staff);
    const onTwo = await socketOf(two.url, staff);
    const onOne = await socketOf(one.url, staff);
    expect((await admin.request(`/api/users/${id}`, { method: 'PATCH', json: { isActive: false } })).status).toBe(200);
    await expect.poll(() => onTwo.closeCode()).toBe(CloseCode.Unauthorized);
    await expect.poll(() => onOne.closeCode()).toBe(CloseCode.Unauthorized);
    expect((await client(two.url, staff.cookie).request('/api/auth/user')).status).toBe(401);
  });

  it('[U12] a password reset through one instance closes the user’s sockets on the other', async () => {
    const staff = await signInAs(one.url, admin, 'Staff');
    const { id } = await me(staff);
    const onTwo = await socketOf(two.url, staff);
    expect((await admin.request(`/api/users/${id}/password`, { method: 'PUT', json: { password: 'a brand new password' } })).status).toBe(
      204,
    );
    await expect.poll(() => onTwo.closeCode()).toBe(CloseCode.Unauthorized);
  });
});
