import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode } from '../../shared/index.ts';
import { MAX_PASSWORD_FAILURES } from '../src/auth/current-password.ts';
import type { RunningServer } from '../src/server.ts';
import { client, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { startTwoInstances } from './support/two-instances.ts';
import { openSyncSocket, type SyncSocket } from './support/sync-socket.ts';

const PASSWORD = 'a long enough password';

type ApiUser = { id: string; email: string; firstName: string | null; lastName: string | null };

async function me(as: ApiClient): Promise<ApiUser> {
  return (await as.request('/api/auth/user')).json();
}

const changePassword = (as: ApiClient, currentPassword: unknown, newPassword: unknown = 'a brand new password') =>
  as.request('/api/auth/password', { method: 'PUT', json: { currentPassword, newPassword } });

const sockets: SyncSocket[] = [];
async function socketOf(baseUrl: string, as: ApiClient): Promise<SyncSocket> {
  const socket = await openSyncSocket(baseUrl, as.cookie);
  sockets.push(socket);
  return socket;
}
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

describe.each(databaseKinds())('one’s own password, e-mail and sessions (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => server?.destroy());

  /** A new Staff account signed in on a desk and a phone, each with an open sync socket. */
  async function staffOnTwoDevices() {
    const desk = await signInAs(server.url, admin, 'Staff');
    const user = await me(desk);
    const phone = await signIn(server.url, user.email, PASSWORD);
    return { user, desk, phone, deskSocket: await socketOf(server.url, desk), phoneSocket: await socketOf(server.url, phone) };
  }

  it('[U13] changes one’s own password: the other sessions and their sockets end, this one stays; only the new password signs in', async () => {
    const { user, desk, phone, deskSocket, phoneSocket } = await staffOnTwoDevices();
    const response = await changePassword(desk, PASSWORD);
    expect(response.status).toBe(204);
    expect((await phone.request('/api/auth/user')).status).toBe(401);
    await expect.poll(() => phoneSocket.closeCode()).toBe(CloseCode.Unauthorized);
    expect(deskSocket.closeCode()).toBeUndefined();
    expect((await desk.request('/api/auth/user')).status).toBe(200);
    await expect(signIn(server.url, user.email, PASSWORD)).rejects.toThrow('401');
    expect((await me(await signIn(server.url, user.email, 'a brand new password'))).id).toBe(user.id);
  });

  it('[U13] a wrong current password is a 400 on the field; the limit’s wrong one ends the session (401)', async () => {
    const { user, desk, phone, deskSocket } = await staffOnTwoDevices();
    for (let attempt = 1; attempt < MAX_PASSWORD_FAILURES; attempt++) {
      const response = await changePassword(desk, `guess ${attempt}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        message: 'currentPassword: Current password is incorrect.',
        issues: [{ path: 'currentPassword', message: 'Current password is incorrect.' }],
      });
    }
    const last = await changePassword(desk, 'one guess too many');
    expect(last.status).toBe(401);
    expect(last.headers.get('set-cookie')).toMatch(/ranch_session=;/);
    await expect.poll(() => deskSocket.closeCode()).toBe(CloseCode.Unauthorized);
    // The session is gone, right password or not; the phone's session was not touched.
    expect((await changePassword(desk, PASSWORD)).status).toBe(401);
    expect((await phone.request('/api/auth/user')).status).toBe(200);
    expect((await me(await signIn(server.url, user.email, PASSWORD))).id).toBe(user.id);
  });

  it('[U13] a right password clears the count of wrong ones', async () => {
    const { desk } = await staffOnTwoDevices();
    let current = PASSWORD;
    for (let round = 1; round <= 2; round++) {
      for (let attempt = 1; attempt < MAX_PASSWORD_FAILURES; attempt++) expect((await changePassword(desk, 'wrong')).status).toBe(400);
      const next = `new password number ${round}`;
      expect((await changePassword(desk, current, next)).status).toBe(204);
      current = next;
    }
    // A new e-mail given with the right password clears it too ([U15]).
    const newEmail = (email: string, currentPassword: string) =>
      desk.request('/api/auth/user', { method: 'PUT', json: { firstName: 'Sam', lastName: 'Stable', email, currentPassword } });
    for (let round = 1; round <= 2; round++) {
      for (let attempt = 1; attempt < MAX_PASSWORD_FAILURES; attempt++)
        expect((await newEmail('sam@ranch.test', 'wrong')).status).toBe(400);
      expect((await newEmail(`sam${round}@ranch.test`, current)).status).toBe(200);
    }
  });

  it('[U13] requests sent at once get no more password comparisons than the limit allows', async () => {
    const { desk } = await staffOnTwoDevices();
    for (let attempt = 1; attempt < MAX_PASSWORD_FAILURES; attempt++) expect((await changePassword(desk, 'wrong')).status).toBe(400);
    // Eight at once, all with the right password: each is counted before it is compared, so
    // only the one counted at the limit is compared. The others are counted past the limit
    // and end the session (401), or, counted after the new password was stored with a
    // cleared count, are compared with the new one (400). Comparing before counting would
    // let them all read the count under the limit and change the password.
    const answers = await Promise.all(Array.from({ length: 8 }, () => changePassword(desk, PASSWORD)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 204).length).toBeLessThanOrEqual(1);
    expect(statuses.filter((status) => status !== 204).every((status) => status === 401 || status === 400)).toBe(true);
  });

  it('[U13] wrong guesses sent at once: those counted under the limit are refused (400), the rest end the session', async () => {
    const { desk } = await staffOnTwoDevices();
    // Wrong guesses never clear the count, so the answers are the same however they interleave.
    const answers = await Promise.all(
      Array.from({ length: 2 * MAX_PASSWORD_FAILURES }, (_, index) => changePassword(desk, `guess ${index}`)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([
      ...Array.from({ length: MAX_PASSWORD_FAILURES - 1 }, () => 400),
      ...Array.from({ length: MAX_PASSWORD_FAILURES + 1 }, () => 401),
    ]);
    expect((await changePassword(desk, PASSWORD)).status).toBe(401);
  });

  it('[U13] refuses a new password the account rules refuse (400), a missing current one (400), and needs a session (401)', async () => {
    const { desk } = await staffOnTwoDevices();
    const short = await changePassword(desk, PASSWORD, 'short');
    expect(short.status).toBe(400);
    expect((await short.json()).message).toBe('newPassword: Password must be at least 8 characters');
    const missing = await desk.request('/api/auth/password', { method: 'PUT', json: { newPassword: 'a brand new password' } });
    expect(missing.status).toBe(400);
    expect((await missing.json()).issues).toEqual([{ path: 'currentPassword', message: 'Current password is required' }]);
    expect((await changePassword(client(server.url, ''), PASSWORD)).status).toBe(401);
    expect((await desk.request('/api/auth/user')).status).toBe(200);
  });

  it('[U14] signing out everywhere ends every session of the user, this one included, closes their sockets and clears the cookie', async () => {
    const { user, desk, phone, deskSocket, phoneSocket } = await staffOnTwoDevices();
    const other = await signInAs(server.url, admin, 'Staff');
    const otherSocket = await socketOf(server.url, other);

    const response = await phone.request('/api/auth/logout-everywhere', { method: 'POST' });
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toMatch(/ranch_session=;/);
    for (const session of [desk, phone]) expect((await session.request('/api/auth/user')).status).toBe(401);
    await expect.poll(() => deskSocket.closeCode()).toBe(CloseCode.Unauthorized);
    await expect.poll(() => phoneSocket.closeCode()).toBe(CloseCode.Unauthorized);
    // Someone else keeps their session; the user signs in again as before.
    expect((await other.request('/api/auth/user')).status).toBe(200);
    expect(otherSocket.closeCode()).toBeUndefined();
    expect((await me(await signIn(server.url, user.email, PASSWORD))).id).toBe(user.id);
    expect((await client(server.url, '').request('/api/auth/logout-everywhere', { method: 'POST' })).status).toBe(401);
  });

  it('[U15] a new e-mail needs the current password (400 on the field); names alone need none', async () => {
    const { user, desk } = await staffOnTwoDevices();
    const profile = (json: Record<string, unknown>) =>
      desk.request('/api/auth/user', { method: 'PUT', json: { firstName: 'Sam', lastName: 'Stable', ...json } });

    const missing = await profile({ email: 'sam@ranch.test' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      message: 'currentPassword: Enter your current password to change your e-mail.',
      issues: [{ path: 'currentPassword', message: 'Enter your current password to change your e-mail.' }],
    });
    const wrong = await profile({ email: 'sam@ranch.test', currentPassword: 'not it' });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).issues).toEqual([{ path: 'currentPassword', message: 'Current password is incorrect.' }]);
    expect((await me(desk)).email).toBe(user.email);

    // The same e-mail in other letters is no change.
    const names = await profile({ email: user.email.toUpperCase() });
    expect(names.status).toBe(200);
    expect(await names.json()).toMatchObject({ firstName: 'Sam', email: user.email });

    const changed = await profile({ email: 'Sam@Ranch.test', currentPassword: PASSWORD });
    expect(changed.status).toBe(200);
    expect((await me(desk)).email).toBe('sam@ranch.test');
    expect((await me(await signIn(server.url, 'sam@ranch.test', PASSWORD))).id).toBe(user.id);
  });

  it('[U15] whether an e-mail has an account is told only to someone who gave their password', async () => {
    const { desk } = await staffOnTwoDevices();
    const profile = (json: Record<string, unknown>) =>
      desk.request('/api/auth/user', { method: 'PUT', json: { firstName: 'S', lastName: 'T', ...json } });
    // Without the password an address in use and a free one get the same answer.
    for (const currentPassword of [undefined, 'not it']) {
      const taken = await profile({ email: ADMIN.email, currentPassword });
      const free = await profile({ email: 'nobody-has-this@ranch.test', currentPassword });
      expect(taken.status).toBe(400);
      expect(await taken.json()).toEqual(await free.json());
    }
    const withPassword = await profile({ email: ADMIN.email, currentPassword: PASSWORD });
    expect(withPassword.status).toBe(409);
    expect((await withPassword.json()).issues).toEqual([{ path: 'email', message: expect.stringMatching(/already exists/) }]);
  });

  it('[U11]–[U15] answers malformed bodies to the account calls with a 400 and a JSON message, never a 5xx', async () => {
    const { user, desk } = await staffOnTwoDevices();
    const calls: [string, string][] = [
      ['PATCH', `/api/users/${user.id}`],
      ['PUT', `/api/users/${user.id}/password`],
      ['PUT', '/api/auth/password'],
      ['PUT', '/api/auth/user'],
    ];
    const bodies = ['{"isActive":', 'null', '[]', '"text"', '{"__proto__":{"isActive":false}}', '{"password":{"length":9}}'];
    for (const [method, path] of calls) {
      for (const body of bodies) {
        const response = await admin.request(path, { method, body, headers: { 'content-type': 'application/json' } });
        expect(response.status, `${method} ${path} ${body}`).toBe(400);
        expect(typeof (await response.json()).message).toBe('string');
      }
    }
    expect((await desk.request('/api/auth/user')).status).toBe(200);
    expect((await me(desk)).email).toBe(user.email);
  });
});

// Instances share Postgres, never PGlite (one session), so these run where DATABASE_URL is set.
describe.each(databaseKinds().filter((kind) => kind === 'postgres'))('[U13] [U14] sessions ended on two instances (%s)', (kind) => {
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

  it('[U13] a password changed through one instance closes the other sessions’ sockets on the other, not this session’s', async () => {
    const desk = await signInAs(one.url, admin, 'Staff');
    const phone = await signIn(two.url, (await me(desk)).email, PASSWORD);
    const phoneOnTwo = await socketOf(two.url, phone);
    const deskOnTwo = await socketOf(two.url, desk);
    expect((await changePassword(desk, PASSWORD)).status).toBe(204);
    await expect.poll(() => phoneOnTwo.closeCode()).toBe(CloseCode.Unauthorized);
    expect(deskOnTwo.closeCode()).toBeUndefined();
  });

  it('[U14] signing out everywhere through one instance closes the user’s sockets on the other', async () => {
    const desk = await signInAs(one.url, admin, 'Staff');
    const onTwo = await socketOf(two.url, desk);
    expect((await desk.request('/api/auth/logout-everywhere', { method: 'POST' })).status).toBe(204);
    await expect.poll(() => onTwo.closeCode()).toBe(CloseCode.Unauthorized);
  });
});
