import type { Sql } from '../db/client.ts';
import { newId, type Role, type User } from '../../../shared/index.ts';
import { hashPassword } from './password.ts';
import type { SessionUser } from './sessions.ts';

export type NewUser = { email: string; firstName: string | null; lastName: string | null; role: Role; password: string };

export class EmailTakenError extends Error {}

export async function findUserForLogin(sql: Sql, email: string) {
  const [row] = await sql<{ id: string; password_hash: string | null }[]>`
    select id, password_hash from users where email = ${email.toLowerCase()}`;
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
  return fromRow(row);
}

/**
 * Start-up bootstrap: the account named by RANCH_ADMIN_EMAIL exists, is an Admin and has
 * RANCH_ADMIN_PASSWORD, so an operator can always get back in by restarting with them.
 */
export async function ensureAdmin(sql: Sql, admin: { email: string; password: string }): Promise<void> {
  const passwordHash = await hashPassword(admin.password);
  await sql`
    insert into users (id, email, role, password_hash)
    values (${newId()}, ${admin.email.toLowerCase()}, 'Admin', ${passwordHash})
    on conflict (email) do update set role = 'Admin', password_hash = excluded.password_hash, updated_at = now()`;
}

type UserRow = {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: Role;
  profile_image_url: string | null;
  created_at: Date;
  updated_at: Date;
};

function fromRow(row: UserRow): SessionUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    profileImageUrl: row.profile_image_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** SPEC §3 user as the API returns it. */
export function toApiUser(user: SessionUser): User {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    profileImageUrl: user.profileImageUrl,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}
