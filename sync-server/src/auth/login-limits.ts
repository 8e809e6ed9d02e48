import { sha256 } from '@oslojs/crypto/sha2';
import { encodeHexLowerCase } from '@oslojs/encoding';
import type { Sql } from '../db/client.ts';

/**
 * Failed sign-ins are counted per account (the e-mail typed, whether or not it exists) and
 * per client address, in Postgres so every instance shares the count. Each key has a fixed
 * window starting at its first failure; once a key has used up its failures, sign-ins
 * under it are refused until the window ends — a right password included, or guessing
 * would simply go on.
 */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export type LoginKeys = { account: string | undefined; address: string };

type Counter = { key: string; failures: number; retry_after: number };

/** Keys are hashed: people type passwords into the e-mail field, and those should not sit in a table. */
function hashKey(kind: 'account' | 'address', value: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(`${kind}:${value}`)));
}

function counterKeys(keys: LoginKeys): { key: string; limit: number }[] {
  const list = [{ key: hashKey('address', keys.address), limit: MAX_FAILURES_PER_ADDRESS }];
  if (keys.account) list.push({ key: hashKey('account', keys.account), limit: MAX_FAILURES_PER_ACCOUNT });
  return list;
}

/**
 * Counts this attempt as a failure before the password is checked, in one statement, so
 * a burst of parallel guesses cannot all slip in under the limit; `succeeded` takes it
 * back. Returns the seconds to wait when a key is over its limit, else undefined.
 */
export async function beginLoginAttempt(sql: Sql, keys: LoginKeys): Promise<number | undefined> {
  const counters = counterKeys(keys);
  const window = LOGIN_WINDOW_SECONDS;
  await sql`delete from login_attempts where window_started_at < now() - (${window}::int * interval '1 second')`;
  const rows = await sql<Counter[]>`
    insert into login_attempts (key, failures, window_started_at)
    select key, 1, now() from unnest(${counters.map((c) => c.key)}::text[]) as key
    on conflict (key) do update set
      failures = case when login_attempts.window_started_at <= now() - (${window}::int * interval '1 second')
                      then 1 else login_attempts.failures + 1 end,
      window_started_at = case when login_attempts.window_started_at <= now() - (${window}::int * interval '1 second')
                               then now() else login_attempts.window_started_at end
    returning key, failures,
      greatest(1, ceil(extract(epoch from window_started_at + (${window}::int * interval '1 second') - now())))::int as retry_after`;
  const waits = rows
    .filter((row) => row.failures > (counters.find((c) => c.key === row.key)?.limit ?? Infinity))
    .map((row) => row.retry_after);
  return waits.length > 0 ? Math.max(...waits) : undefined;
}

/** A right password clears the account's count and takes back this attempt from the address's. */
export async function loginSucceeded(sql: Sql, keys: LoginKeys): Promise<void> {
  const [address, account] = counterKeys(keys);
  if (account) await sql`delete from login_attempts where key = ${account.key}`;
  if (address) await sql`update login_attempts set failures = greatest(failures - 1, 0) where key = ${address.key}`;
}

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}
