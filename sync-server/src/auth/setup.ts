import type { Sql } from '../db/client.ts';
import { newId } from '../../../shared/index.ts';
import { hashLinkToken, isLinkToken, newLinkToken, sameToken } from './link-token.ts';
import { hashPassword } from './password.ts';

/**
 * [A14] The first-run setup address: while the ranch has no Admin, the server makes a token
 * at start-up (kept in this process only, as its hash) and prints `/api/setup/<token>`. The
 * token works until an Admin exists (then it is forgotten) or the server stops; a new start
 * without an Admin prints a new one.
 */
export class SetupToken {
  private hash: string | undefined;

  /** Makes the token when the ranch has no Admin; returns it (undefined: an Admin exists). */
  async open(sql: Sql): Promise<string | undefined> {
    if (await hasAdmin(sql)) return undefined;
    const token = newLinkToken();
    this.hash = hashLinkToken(token);
    return token;
  }

  get isOpen(): boolean {
    return this.hash !== undefined;
  }

  matches(candidate: unknown): boolean {
    return this.hash !== undefined && isLinkToken(candidate) && sameToken(this.hash, candidate);
  }

  close(): void {
    this.hash = undefined;
  }
}

export async function hasAdmin(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`select exists (select 1 from users where role = 'Admin') as found`;
  return row?.found ?? false;
}

export type Owner = { ranchName: string; firstName: string; lastName: string; email: string; password: string };

/**
 * Creates the owner's Admin account and the ranch's name in one transaction, under the
 * account lock, unless an Admin exists by then ('taken': another tab or instance was first).
 */
export type OwnerResult = { kind: 'created'; userId: string } | { kind: 'taken' } | { kind: 'email' };

export async function createOwner(sql: Sql, owner: Owner): Promise<OwnerResult> {
  const passwordHash = await hashPassword(owner.password);
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(7261002)`;
    const [admin] = await tx`select 1 from users where role = 'Admin'`;
    if (admin) return { kind: 'taken' } as const;
    const userId = newId();
    const rows = await tx`
      insert into users (id, email, first_name, last_name, role, password_hash)
      values (${userId}, ${owner.email}, ${owner.firstName}, ${owner.lastName}, 'Admin', ${passwordHash})
      on conflict (email) do nothing returning id`;
    if (rows.length === 0) return { kind: 'email' } as const;
    await tx`
      insert into ranch_settings (name, value) values ('name', ${owner.ranchName})
      on conflict (name) do update set value = excluded.value, updated_at = now()`;
    return { kind: 'created', userId } as const;
  });
}
