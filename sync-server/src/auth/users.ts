import type { Sql, Tx } from '../db/client.ts';
import { newId, type Role, type User } from '../../../shared/index.ts';
import { hashPassword, verifyPassword } from './password.ts';
import type { SessionUser } from './sessions.ts';

export type NewUser = { email: string; firstName: string | null; lastName: string | null; role: Role; password: string };

export class EmailTakenError extends Error {}

/** The account to sign in to; a deactivated one is not found, so its sign-in fails like any other ([U11]). */
export async function findUserForLogin(sql: Sql, email: string) {
  const [row] = await sql<{ id: string; password_hash: string | null }[]>`
    select id, password_hash from users where email = ${email.toLowerCase()} and is_active`;
  return row;
}

export async function createUser(sql: Sql, input: NewUser): Promise<SessionUser> {
  const passwordHash = await hashPassword(input.password);
  const rows = await sql<UserRow[]>`
    insert into users (id, email, first_name, last_name, role, password_hash)
    values (${newId()}, ${input.email.toLowerCase()}, ${input.firstName}, ${input.lastName}, ${input.role}, ${passwordHash})
    on conflict (email) do nothing
    returning *`;
  const row = rows[0];
  if (!row) throw new EmailTakenError(`An account with the e-mail ${input.email} already exists`);
  return userFromRow(row);
}

/**
 * [U17] An invited account: no password until the person sets one by their link, so nobody
 * can sign in to it before. Throws EmailTakenError like createUser.
 */
export async function createInvitedUser(sql: Sql, input: Omit<NewUser, 'password'>): Promise<SessionUser> {
  const rows = await sql<UserRow[]>`
    insert into users (id, email, first_name, last_name, role, password_hash)
    values (${newId()}, ${input.email.toLowerCase()}, ${input.firstName}, ${input.lastName}, ${input.role}, null)
    on conflict (email) do nothing
    returning *`;
  const row = rows[0];
  if (!row) throw new EmailTakenError(`An account with the e-mail ${input.email} already exists`);
  return userFromRow(row);
}

/** The account and whether it has a password yet (an invited one has none until its link is used). */
export async function findAccount(sql: Sql, userId: string): Promise<{ user: SessionUser; hasPassword: boolean } | undefined> {
  const [row] = await sql<(UserRow & { has_password: boolean })[]>`
    select id, email, first_name, last_name, role, profile_image_url, is_active, created_at, updated_at,
           password_hash is not null as has_password
    from users where id = ${userId}`;
  return row ? { user: userFromRow(row), hasPassword: row.has_password } : undefined;
}

/** What `ensureAdmin` did, for the start-up log. */
export type AdminBootstrap = {
  outcome: 'created' | 'kept' | 'reset' | 'reset-before' | 'adopted' | 'inactive' | 'refused';
  email: string;
};

/** The settings' admin account: its e-mail and first password, and whether to reset it now. */
export type AdminSettings = { email: string; password: string; reset?: boolean };

/** `server_secrets` row remembering the password the last reset applied (its argon2 hash). */
const RESET_MARK = 'admin-reset';

/**
 * [A9] Start-up bootstrap. RANCH_ADMIN_EMAIL's account is created, as an Admin with
 * RANCH_ADMIN_PASSWORD, when the settings have made none yet; after that the settings
 * change nothing, so the owner's own password change (and any Admin's decision about the
 * account) survives every restart ('kept'). Only `reset` (RANCH_ADMIN_RESET=1) sets the
 * password again, makes the account an Admin and ends its sessions, and it does so once per
 * password: a reset flag left in the settings does not undo a later change ('reset-before').
 * The account is the one the bootstrap created, found by its mark (`is_bootstrap`), never by
 * e-mail: an Admin may change their e-mail, and another account that takes the free address
 * is never promoted (docs/security.md). A database from before the mark adopts the account
 * with that e-mail only if it is already an Admin. An account an Admin deactivated stays so
 * ('inactive'), reset or not: a restart never gives back access that was taken away ([U11]).
 */
export async function ensureAdmin(sql: Sql, admin: AdminSettings): Promise<AdminBootstrap> {
  const email = admin.email.toLowerCase();
  const [bootstrap] = await sql<{ id: string; email: string; is_active: boolean }[]>`
    select id, email, is_active from users where is_bootstrap`;
  if (bootstrap) {
    if (!bootstrap.is_active) return { outcome: 'inactive', email: bootstrap.email };
    if (!admin.reset) return { outcome: 'kept', email: bootstrap.email };
    return { outcome: await resetAdmin(sql, bootstrap.id, admin.password), email: bootstrap.email };
  }
  const [existing] = await sql<{ id: string; role: Role }[]>`select id, role from users where email = ${email}`;
  if (existing && existing.role !== 'Admin') return { outcome: 'refused', email };
  if (existing) {
    await sql`update users set is_bootstrap = true where id = ${existing.id}`;
    return { outcome: admin.reset ? await resetAdmin(sql, existing.id, admin.password) : 'adopted', email };
  }
  await sql`
    insert into users (id, email, role, password_hash, is_bootstrap)
    values (${newId()}, ${email}, 'Admin', ${await hashPassword(admin.password)}, true)`;
  return { outcome: 'created', email };
}

/** Sets the password (unless a reset applied this one before), the Admin role, and ends the sessions. */
async function resetAdmin(sql: Sql, userId: string, password: string): Promise<'reset' | 'reset-before'> {
  const [mark] = await sql<{ value: Uint8Array }[]>`select value from server_secrets where name = ${RESET_MARK}`;
  if (mark && (await verifyPassword(Buffer.from(mark.value).toString('utf8'), password))) return 'reset-before';
  const passwordHash = await hashPassword(password);
  await sql.begin(async (tx) => {
    await tx`update users set role = 'Admin', password_hash = ${passwordHash}, updated_at = now() where id = ${userId}`;
    await tx`delete from sessions where user_id = ${userId}`;
    await tx`
      insert into server_secrets (name, value) values (${RESET_MARK}, ${Buffer.from(passwordHash, 'utf8')})
      on conflict (name) do update set value = excluded.value, created_at = now()`;
  });
  return 'reset';
}

export type UserRow = {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: Role;
  profile_image_url: string | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
};

export function userFromRow(row: UserRow): SessionUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    profileImageUrl: row.profile_image_url,
    isActive: row.is_active,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** [U6] user as the API returns it. */
export function toApiUser(user: SessionUser): User {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    profileImageUrl: user.profileImageUrl,
    isActive: user.isActive,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/** Every account, oldest first ([U6] users for the Users screen). */
export async function listUsers(sql: Sql): Promise<SessionUser[]> {
  const rows = await sql<UserRow[]>`
    select id, email, first_name, last_name, role, profile_image_url, is_active, created_at, updated_at
    from users order by created_at, id`;
  return rows.map(userFromRow);
}

export type RoleChange = { kind: 'changed'; user: SessionUser } | { kind: 'own' } | { kind: 'unknown' } | { kind: 'not-admin' };

/**
 * Role changes are serialised by a transaction lock and re-check that the actor is still
 * an Admin, so two Admins demoting each other at the same moment cannot leave none.
 */
export async function changeRole(sql: Sql, actorId: string, userId: string, role: Role): Promise<RoleChange> {
  if (actorId === userId) return { kind: 'own' };
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(7261002)`;
    if (!(await isActiveAdmin(tx, actorId))) return { kind: 'not-admin' } as const;
    const [row] = await tx<UserRow[]>`
      update users set role = ${role}, updated_at = now() where id = ${userId}
      returning id, email, first_name, last_name, role, profile_image_url, is_active, created_at, updated_at`;
    return row ? ({ kind: 'changed', user: userFromRow(row) } as const) : ({ kind: 'unknown' } as const);
  });
}

/** Under the account lock: whether the actor is (still) an active Admin. */
async function isActiveAdmin(tx: Tx, actorId: string): Promise<boolean> {
  const [actor] = await tx<{ role: Role; is_active: boolean }[]>`select role, is_active from users where id = ${actorId}`;
  return actor?.role === 'Admin' && actor.is_active;
}

export type ActiveChange = { kind: 'changed'; user: SessionUser } | { kind: 'own' } | { kind: 'unknown' } | { kind: 'not-admin' };

/**
 * [U11] Deactivates (ending every session of the account in the same commit) or reactivates
 * an account. Serialised with role changes by the same lock, re-checking that the actor is
 * still an active Admin: the actor is an active Admin other than the account, so the ranch
 * always keeps one, even when two Admins deactivate each other at the same moment.
 */
export async function setUserActive(sql: Sql, actorId: string, userId: string, isActive: boolean): Promise<ActiveChange> {
  if (actorId === userId) return { kind: 'own' };
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(7261002)`;
    if (!(await isActiveAdmin(tx, actorId))) return { kind: 'not-admin' } as const;
    const [row] = await tx<UserRow[]>`
      update users set is_active = ${isActive}, updated_at = case when is_active = ${isActive} then updated_at else now() end
      where id = ${userId}
      returning id, email, first_name, last_name, role, profile_image_url, is_active, created_at, updated_at`;
    if (!row) return { kind: 'unknown' } as const;
    if (!isActive) await tx`delete from sessions where user_id = ${userId}`;
    return { kind: 'changed', user: userFromRow(row) } as const;
  });
}

/**
 * [U12] [U13] A new password for the account; every one of its sessions ends in the same
 * commit, but `keepSessionId` (the one that changed its own password). False for no such account.
 */
export async function setPassword(sql: Sql, userId: string, password: string, keepSessionId?: string): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  return sql.begin(async (tx) => {
    const changed = await tx`update users set password_hash = ${passwordHash}, updated_at = now() where id = ${userId}`;
    if (changed.count === 0) return false;
    if (keepSessionId) {
      await tx`delete from sessions where user_id = ${userId} and id <> ${keepSessionId}`;
      // The kept session's wrong current passwords are forgotten with the password they guessed.
      await tx`update sessions set password_failures = 0 where id = ${keepSessionId}`;
    } else await tx`delete from sessions where user_id = ${userId}`;
    return true;
  });
}

const UNIQUE_VIOLATION = '23505';

/** Names and e-mail only: the role and everything else stay as they are. */
export async function updateProfile(
  sql: Sql,
  userId: string,
  profile: { firstName: string; lastName: string; email: string },
): Promise<SessionUser> {
  try {
    const [row] = await sql<UserRow[]>`
      update users set first_name = ${profile.firstName}, last_name = ${profile.lastName},
                       email = ${profile.email.toLowerCase()}, updated_at = now()
      where id = ${userId}
      returning id, email, first_name, last_name, role, profile_image_url, is_active, created_at, updated_at`;
    if (!row) throw new Error(`User ${userId} vanished during a profile update`);
    return userFromRow(row);
  } catch (error) {
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) {
      throw new EmailTakenError(`An account with the e-mail ${profile.email} already exists`);
    }
    throw error;
  }
}
