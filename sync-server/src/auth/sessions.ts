import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import type { Sql } from '../db/client.ts';
import type { Role } from '../../../shared/index.ts';
import { userFromRow, type UserRow } from './users.ts';

/**
 * Sessions the Lucia way: the cookie holds a random token, the database only its SHA-256,
 * so a leaked sessions table cannot be replayed. Expiry slides forward while in use.
 */
export const SESSION_COOKIE = 'ranch_session';
/** The name over HTTPS: the `__Host-` prefix binds it to this host, secure, path `/`. */
export const SECURE_SESSION_COOKIE = '__Host-ranch_session';
const DAY_MS = 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 30 * DAY_MS;
const RENEW_WHEN_LEFT_MS = 15 * DAY_MS;
/**
 * [A8] However much it is used, a session ends this long after its sign-in: a computer left
 * signed in, or a stolen cookie, does not stay signed in for ever.
 */
export const SESSION_MAX_AGE_MS = 30 * DAY_MS;

export type SessionUser = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: Role;
  profileImageUrl: string | null;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
};

/** `authenticatedAt`: when the user last gave their password in this session ([U16]). */
export type Session = { id: string; userId: string; expiresAt: Date; authenticatedAt: Date };

function sessionIdFromToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export function generateSessionToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

export async function createSession(sql: Sql, token: string, userId: string): Promise<Session> {
  const session = {
    id: sessionIdFromToken(token),
    userId,
    expiresAt: new Date(Date.now() + SESSION_LIFETIME_MS),
    authenticatedAt: new Date(),
  };
  await sql`insert into sessions (id, user_id, expires_at) values (${session.id}, ${userId}, ${session.expiresAt})`;
  return session;
}

type Row = UserRow & { session_id: string; expires_at: Date; authenticated_at: Date; signed_in_at: Date };

/**
 * The session and its user, read fresh on every request so a role change applies at once.
 * A deactivated account's session is no session ([U11]; deactivating also deletes them).
 */
export async function validateSessionToken(
  sql: Sql,
  token: string,
): Promise<{ session: Session; user: SessionUser; renewed: boolean } | null> {
  if (!/^[a-z2-7]{32}$/.test(token)) return null;
  const sessionId = sessionIdFromToken(token);
  const [row] = await sql<Row[]>`
    select s.id as session_id, s.expires_at, s.authenticated_at, s.created_at as signed_in_at, u.id, u.email, u.first_name, u.last_name, u.role,
           u.profile_image_url, u.is_active, u.created_at, u.updated_at
    from sessions s join users u on u.id = s.user_id
    where s.id = ${sessionId} and u.is_active`;
  if (!row) return null;
  const session: Session = { id: row.session_id, userId: row.id, expiresAt: row.expires_at, authenticatedAt: row.authenticated_at };
  const endOfLife = row.signed_in_at.getTime() + SESSION_MAX_AGE_MS;
  if (Date.now() >= Math.min(session.expiresAt.getTime(), endOfLife)) {
    await sql`delete from sessions where id = ${sessionId}`;
    return null;
  }
  const next = Math.min(Date.now() + SESSION_LIFETIME_MS, endOfLife);
  const renewed = Date.now() >= session.expiresAt.getTime() - RENEW_WHEN_LEFT_MS && next !== session.expiresAt.getTime();
  if (renewed) {
    session.expiresAt = new Date(next);
    await sql`update sessions set expires_at = ${session.expiresAt} where id = ${sessionId}`;
  }
  return { session, renewed, user: userFromRow(row) };
}

export async function invalidateSession(sql: Sql, sessionId: string): Promise<void> {
  await sql`delete from sessions where id = ${sessionId}`;
}

/** [A8] Deletes the sessions that have ended (expired, or past their maximum age); returns how many. */
export async function purgeEndedSessions(sql: Sql): Promise<number> {
  const maxAge = new Date(Date.now() - SESSION_MAX_AGE_MS);
  const deleted = await sql`delete from sessions where expires_at <= now() or created_at <= ${maxAge}`;
  return deleted.count;
}

/** [U14] Ends every session of the user. */
export async function invalidateUserSessions(sql: Sql, userId: string): Promise<void> {
  await sql`delete from sessions where user_id = ${userId}`;
}
