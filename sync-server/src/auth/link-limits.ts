import type { Context } from 'hono';
import type { Sql } from '../db/client.ts';
import type { ProxyTrust } from '../http/proxy-trust.ts';
import { clientAddress } from './client-address.ts';
import { beginLoginAttempt, loginSucceeded } from './login-limits.ts';

/**
 * [A14] [U17] [U18] Opening a setup address or an account link counts, before the token is
 * checked, as a failed sign-in from the client's address ([A5]: 20 free, then waits that
 * double); a valid token takes it back. Guessing tokens thus costs what guessing passwords does.
 */
export async function beginTokenAttempt(sql: Sql, c: Context, trustProxy: ProxyTrust): Promise<number | undefined> {
  return beginLoginAttempt(sql, { account: undefined, address: clientAddress(c, trustProxy) });
}

export async function tokenAccepted(sql: Sql, c: Context, trustProxy: ProxyTrust): Promise<void> {
  await loginSucceeded(sql, { account: undefined, address: clientAddress(c, trustProxy) });
}

export function tooManyLinksMessage(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const [count, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return `Too many wrong links from this address. Try again in ${count} ${unit}${count === 1 ? '' : 's'}.`;
}
