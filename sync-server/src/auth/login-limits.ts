import { sha256 } from '@oslojs/crypto/sha2';
import { encodeHexLowerCase } from '@oslojs/encoding';
import type { Sql } from '../db/client.ts';

/**
 * Sign-in throttling ([A5]): failed sign-ins slow the next attempt down with a delay that
 * grows, and never lock anyone out for good. Counted in Postgres so every instance shares
 * the counts, under hashed keys:
 *
 * - a browser with a valid device cookie for the account (device-cookie.ts) is judged by
 *   its own failures only, so spraying the account or the address never keeps its owner out;
 * - any other attempt counts for the account from this address, for the account from every
 *   address, and for the address across accounts, each with failures of its own for free.
 *
 * Past its free failures, each further attempt under a key waits `firstDelaySeconds`, then
 * twice as long after each failure, up to `maxDelaySeconds`. A success clears its device's
 * or its account-and-address's count; a key an hour quiet is forgotten.
 */
export const LOGIN_THROTTLE = {
  freeFailures: { device: 3, accountAddress: 3, account: 10, address: 20 },
  firstDelaySeconds: 1,
  maxDelaySeconds: 15 * 60,
  forgetAfterSeconds: 60 * 60,
} as const;

export type LoginKeys = {
  /** The e-mail typed (whether or not such an account exists); absent for a malformed form. */
  account: string | undefined;
  address: string;
  /** The device id of a valid device cookie for `account`. */
  device?: string | undefined;
};

type Kind = keyof typeof LOGIN_THROTTLE.freeFailures;
type Counter = { kind: Kind; key: string; free: number };

/** Keys are hashed: people type passwords into the e-mail field, and those should not sit in a table. */
export function throttleKey(kind: Kind, ...parts: string[]): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode([kind, ...parts].join('\n'))));
}

function counters({ account, address, device }: LoginKeys): Counter[] {
  const counter = (kind: Kind, ...parts: string[]) => ({ kind, key: throttleKey(kind, ...parts), free: LOGIN_THROTTLE.freeFailures[kind] });
  if (account !== undefined && device !== undefined) return [counter('device', account, device)];
  const list = [counter('address', address)];
  if (account !== undefined) list.push(counter('accountAddress', account, address), counter('account', account));
  // One order for every attempt, so attempts sharing keys lock their rows without deadlocks.
  return list.sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** The wait after a key's `failures`-th failure: none within its free failures, then doubling. */
const delaySql = (failures: unknown, free: unknown) => `
  case when ${failures} < ${free} then interval '0'
       else least(${LOGIN_THROTTLE.maxDelaySeconds}, ${LOGIN_THROTTLE.firstDelaySeconds} * power(2, least(${failures} - ${free}, 30)))
            * interval '1 second' end`;

const FORGET = `(${LOGIN_THROTTLE.forgetAfterSeconds} * interval '1 second')`;

/**
 * Counts this attempt as a failure before the password is checked, so a burst of parallel
 * guesses cannot all slip in: the attempt's rows are locked, and only when every key's wait
 * is over is the attempt counted under all of them, each key's next wait set at once.
 * `loginSucceeded` takes it back. Returns the seconds to wait when some key is not ready
 * (the attempt is then not counted), else undefined.
 */
export async function beginLoginAttempt(sql: Sql, keys: LoginKeys): Promise<number | undefined> {
  const list = counters(keys);
  const names = list.map((c) => c.key);
  // Forgets quiet keys, skipping rows an attempt holds (so it never waits for one, nor one for it).
  await sql.unsafe(
    `delete from login_attempts where key in
       (select key from login_attempts where last_failure_at < now() - ${FORGET} for update skip locked)`,
  );
  return sql.begin(async (tx) => {
    // Locks the attempt's rows (made when missing) in key order, the one order every
    // attempt takes, so attempts sharing keys never deadlock. Waits are measured by the
    // clock, not the transaction's start (now()): an attempt that queued behind another
    // must see that one's wait as over when it is.
    const rows = await tx<{ wait: number }[]>`
      insert into login_attempts as a (key, failures, last_failure_at, next_attempt_at)
      select key, 0, clock_timestamp(), clock_timestamp() from unnest(${names}::text[]) with ordinality as k(key, n) order by n
      on conflict (key) do update set key = a.key
      returning ceil(extract(epoch from a.next_attempt_at - clock_timestamp()))::int as wait`;
    const wait = Math.max(0, ...rows.map((row) => row.wait));
    if (wait > 0) return wait;
    // A key quiet for longer than FORGET that the clean-up has not reached starts again at 1.
    const failures = `(case when a.last_failure_at < clock_timestamp() - ${FORGET} then 1 else a.failures + 1 end)`;
    await tx.unsafe(
      `update login_attempts as a
       set failures = ${failures}, last_failure_at = clock_timestamp(),
           next_attempt_at = clock_timestamp() + ${delaySql(failures, 'k.free')}
       from unnest($1::text[], $2::int[]) as k(key, free) where a.key = k.key`,
      [names, list.map((c) => c.free)],
    );
    return undefined;
  });
}

/**
 * A right password clears the device's or the account-and-address's count, and takes this
 * attempt back from the account's and the address's: one valid sign-in must not reset an
 * address guessing other accounts' passwords, nor an account guessed at from elsewhere.
 */
export async function loginSucceeded(sql: Sql, keys: LoginKeys): Promise<void> {
  const list = counters(keys);
  const cleared = list.filter((c) => c.kind === 'device' || c.kind === 'accountAddress').map((c) => c.key);
  const shared = list.filter((c) => c.kind === 'account' || c.kind === 'address');
  await sql.begin(async (tx) => {
    // In key order, as every attempt locks them.
    await tx`select 1 from login_attempts where key = any(${list.map((c) => c.key)}::text[]) order by key for update`;
    if (cleared.length > 0) await tx`delete from login_attempts where key = any(${cleared}::text[])`;
    if (shared.length === 0) return;
    await tx.unsafe(
      `update login_attempts as a
       set failures = greatest(a.failures - 1, 0),
           next_attempt_at = least(a.next_attempt_at, clock_timestamp() + ${delaySql('greatest(a.failures - 1, 0)', 'k.free')})
       from unnest($1::text[], $2::int[]) as k(key, free) where a.key = k.key`,
      [shared.map((c) => c.key), shared.map((c) => c.free)],
    );
  });
}

/** 'Too many failed sign-in attempts. Try again in 8 seconds.' (or minutes, from a minute on). */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const [count, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return `Too many failed sign-in attempts. Try again in ${count} ${unit}${count === 1 ? '' : 's'}.`;
}
