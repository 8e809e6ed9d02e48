import type { Sql } from '../db/client.ts';
import { hashLinkToken, newLinkToken } from './link-token.ts';
import { hashPassword } from './password.ts';

/** [U17] [U18] How long an invitation or a password-reset link works. */
export const LINK_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export type LinkKind = 'invitation' | 'reset';

/**
 * A new link for the account; the account's earlier unused links stop working, so only the
 * latest one given out opens it. The token is returned once, to be shown; only its hash is stored.
 */
export async function issueLink(sql: Sql, userId: string, kind: LinkKind, createdBy: string): Promise<{ token: string; expiresAt: Date }> {
  const token = newLinkToken();
  const expiresAt = new Date(Date.now() + LINK_LIFETIME_MS);
  await sql.begin(async (tx) => {
    await tx`update account_links set expires_at = least(expires_at, now()) where user_id = ${userId} and used_at is null`;
    await tx`
      insert into account_links (id, user_id, kind, created_by, expires_at)
      values (${hashLinkToken(token)}, ${userId}, ${kind}, ${createdBy}, ${expiresAt})`;
  });
  return { token, expiresAt };
}

export type LinkState =
  | { kind: 'valid'; linkKind: LinkKind; userId: string; email: string; name: string }
  | { kind: 'used' | 'expired' | 'unknown' };

/** What the link opens; an inactive account's link opens nothing ([U11]). */
export async function readLink(sql: Sql, token: string): Promise<LinkState> {
  const [row] = await sql<
    { kind: LinkKind; user_id: string; email: string; first_name: string | null; used: boolean; expired: boolean; is_active: boolean }[]
  >`
    select l.kind, l.user_id, u.email, u.first_name, l.used_at is not null as used, l.expires_at <= now() as expired, u.is_active
    from account_links l join users u on u.id = l.user_id
    where l.id = ${hashLinkToken(token)}`;
  if (!row?.is_active) return { kind: 'unknown' };
  if (row.used) return { kind: 'used' };
  if (row.expired) return { kind: 'expired' };
  return { kind: 'valid', linkKind: row.kind, userId: row.user_id, email: row.email, name: row.first_name ?? row.email };
}

/**
 * Uses the link: in one transaction marks it used (only if still unused and unexpired, so two
 * submits at once cannot both pass), sets the password and ends every session of the account.
 */
export async function spendLink(
  sql: Sql,
  token: string,
  password: string,
): Promise<{ kind: 'done'; userId: string } | { kind: 'refused' }> {
  const passwordHash = await hashPassword(password);
  return sql.begin(async (tx) => {
    const [link] = await tx<{ user_id: string }[]>`
      update account_links l set used_at = now()
      from users u
      where l.id = ${hashLinkToken(token)} and l.used_at is null and l.expires_at > now() and u.id = l.user_id and u.is_active
      returning l.user_id`;
    if (!link) return { kind: 'refused' } as const;
    await tx`update users set password_hash = ${passwordHash}, updated_at = now() where id = ${link.user_id}`;
    await tx`delete from sessions where user_id = ${link.user_id}`;
    return { kind: 'done', userId: link.user_id } as const;
  });
}
