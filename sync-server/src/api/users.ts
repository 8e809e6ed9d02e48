import { Hono } from 'hono';
import type { Sql } from '../db/client.ts';
import { requireRole } from '../auth/middleware.ts';
import { issueLink } from '../auth/account-links.ts';
import { changeRole, createInvitedUser, createUser, findAccount, listUsers, setPassword, setUserActive, toApiUser } from '../auth/users.ts';
import { apiError } from '../http/errors.ts';
import type { ProxyTrust } from '../http/proxy-trust.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import type { AccessEvent } from '../sync/peers.ts';
import type { LinkMailer } from '../mail/link-mail.ts';
import {
  createUserInput,
  inviteUserInput,
  isUuid,
  passwordResetInput,
  resetLinkInput,
  roleChangeInput,
  userActiveInput,
  type AccountLink,
} from '../../../shared/index.ts';
import type { Context } from 'hono';
import { emailTaken } from './account.ts';
import { passwordGate } from './password-gate.ts';

/** Open sync connections follow an access change on every instance (sync/registry.ts). */
export type Announce = (event: AccessEvent) => Promise<void>;

const NO_SUCH_USER = 'No such user.';
const OWN_ROLE = 'You cannot change your own role.';
const OWN_ACTIVE = 'You cannot deactivate or reactivate your own account.';

/**
 * Accounts (Admin only), and the signed-in user ([A3], [U4], [U6], [U10]–[U12], [R4], [R5]).
 * Creating an Admin, changing a role or whether an account is active, and resetting another's
 * password need a recent sign-in or the Admin's password ([U16]).
 */
export function userRoutes(sql: Sql, announce: Announce, trustProxy: ProxyTrust, mailer?: LinkMailer) {
  const app = new Hono<AuthedEnv>();
  const { requireRecentSignIn } = passwordGate(sql, announce, trustProxy);

  app.get('/users', requireRole('Admin'), async (c) => {
    return c.json((await listUsers(sql)).map(toApiUser));
  });

  app.post('/users', requireRole('Admin'), validate('json', createUserInput), async (c) => {
    const { currentPassword, ...input } = c.req.valid('json');
    if (input.role === 'Admin') {
      const refused = await requireRecentSignIn(c, currentPassword);
      if (refused) return refused;
    }
    const user = await createUser(sql, input).catch(emailTaken);
    return c.json(toApiUser(user), 201);
  });

  // [U17] Invite a person: the account (no password yet) and a single-use link to set one.
  app.post('/users/invitations', requireRole('Admin'), validate('json', inviteUserInput), async (c) => {
    const { currentPassword, ...input } = c.req.valid('json');
    if (input.role === 'Admin') {
      const refused = await requireRecentSignIn(c, currentPassword);
      if (refused) return refused;
    }
    const user = await createInvitedUser(sql, input).catch(emailTaken);
    const link = await issueLink(sql, user.id, 'invitation', c.get('user').id);
    return c.json(await mailed(sql, mailer, c, 'invitation', accountLink(c, link, toApiUser(user))), 201);
  });

  // [U18] A single-use link for another account to set a new password (an invitation again
  // while the account has none); using it ends every session of theirs.
  app.post('/users/:userId/link', requireRole('Admin'), validate('json', resetLinkInput), async (c) => {
    const userId = c.req.param('userId');
    if (userId === c.get('user').id) {
      throw apiError(403, 'You cannot make a link for your own account: change your password in your profile.');
    }
    const refused = await requireRecentSignIn(c, c.req.valid('json').currentPassword);
    if (refused) return refused;
    const account = isUuid(userId) ? await findAccount(sql, userId) : undefined;
    if (!account) throw apiError(404, NO_SUCH_USER);
    if (!account.user.isActive) throw apiError(409, 'This account is deactivated: reactivate it first.');
    const kind = account.hasPassword ? 'reset' : 'invitation';
    const link = await issueLink(sql, userId, kind, c.get('user').id);
    return c.json(await mailed(sql, mailer, c, kind, accountLink(c, link, toApiUser(account.user))), 201);
  });

  app.put('/users/:userId/role', requireRole('Admin'), validate('json', roleChangeInput), async (c) => {
    const userId = c.req.param('userId');
    const { role, currentPassword } = c.req.valid('json');
    if (userId === c.get('user').id) throw apiError(403, OWN_ROLE);
    const refused = await requireRecentSignIn(c, currentPassword);
    if (refused) return refused;
    const result = isUuid(userId) ? await changeRole(sql, c.get('user').id, userId, role) : ({ kind: 'unknown' } as const);
    switch (result.kind) {
      case 'changed':
        await announce({ kind: 'role', userId: result.user.id, role: result.user.role });
        return c.json(toApiUser(result.user));
      case 'own':
        throw apiError(403, OWN_ROLE);
      case 'unknown':
        throw apiError(404, NO_SUCH_USER);
      case 'not-admin':
        throw apiError(403, 'Forbidden: your role may not do this');
    }
  });

  // [U11] Deactivate (every session ends, sockets close with 4401 on every instance) or reactivate.
  app.patch('/users/:userId', requireRole('Admin'), validate('json', userActiveInput), async (c) => {
    const userId = c.req.param('userId');
    const { isActive, currentPassword } = c.req.valid('json');
    if (userId === c.get('user').id) throw apiError(403, OWN_ACTIVE);
    const refused = await requireRecentSignIn(c, currentPassword);
    if (refused) return refused;
    const result = isUuid(userId) ? await setUserActive(sql, c.get('user').id, userId, isActive) : ({ kind: 'unknown' } as const);
    switch (result.kind) {
      case 'changed':
        if (!isActive) await announce({ kind: 'userSessions', userId });
        return c.json(toApiUser(result.user));
      case 'own':
        throw apiError(403, OWN_ACTIVE);
      case 'unknown':
        throw apiError(404, NO_SUCH_USER);
      case 'not-admin':
        throw apiError(403, 'Forbidden: your role may not do this');
    }
  });

  // [U12] A new password for someone else; every session of theirs ends.
  app.put('/users/:userId/password', requireRole('Admin'), validate('json', passwordResetInput), async (c) => {
    const userId = c.req.param('userId');
    if (userId === c.get('user').id) {
      throw apiError(403, 'You cannot reset your own password here: change it in your profile with your current password.');
    }
    const { password, currentPassword } = c.req.valid('json');
    const refused = await requireRecentSignIn(c, currentPassword);
    if (refused) return refused;
    if (!isUuid(userId) || !(await setPassword(sql, userId, password))) throw apiError(404, NO_SUCH_USER);
    await announce({ kind: 'userSessions', userId });
    return c.body(null, 204);
  });

  // [A3] The signed-in user (a 401 without a session, from requireUser: the app's "signed out").
  app.get('/auth/user', (c) => c.json(toApiUser(c.get('user'))));

  return app;
}

/**
 * The link's address on the origin the Admin's browser uses (the Origin check vouched for
 * it), which is the address the ranch's phones reach too.
 */
function accountLink(c: Context<AuthedEnv>, link: { token: string; expiresAt: Date }, user: AccountLink['user']): AccountLink {
  const origin = c.req.header('origin') ?? new URL(c.req.url).origin;
  return { url: `${origin}/api/account-link/${link.token}`, expiresAt: link.expiresAt.toISOString(), user };
}

/**
 * [U17] [U18] With SMTP settings, the link is also e-mailed to the person; the answer says
 * whether that worked. The link exists either way: a failed e-mail is reported, not an error.
 */
async function mailed(
  sql: Sql,
  mailer: LinkMailer | undefined,
  c: Context<AuthedEnv>,
  kind: 'invitation' | 'reset',
  link: AccountLink,
): Promise<AccountLink> {
  if (!mailer) return link;
  const [ranch] = await sql<{ value: string }[]>`select value from ranch_settings where name = 'name'`;
  const admin = c.get('user');
  const sender = [admin.firstName, admin.lastName].filter(Boolean).join(' ') || admin.email;
  return { ...link, mail: await mailer({ kind, ranchName: ranch?.value ?? null, sender, link }) };
}
