import { Hono } from 'hono';
import { z } from 'zod';
import { requireWriter } from '../auth/middleware.ts';
import type { Sql } from '../db/client.ts';
import { apiError } from '../http/errors.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import { UserBuckets } from '../sync/limits.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import {
  LEDGER_PAGE_MAX,
  LEDGER_PUSH_MAX,
  LEDGER_VERSION,
  publicName,
  type LedgerEntryInput,
  type LedgerPage,
  type LedgerPushAnswer,
  type LedgerResult,
} from '../../../shared/index.ts';
import { checkRecord, MalformedEntry, readEnvelope } from './entries.ts';
import { pushEntries } from './push.ts';
import { entriesAfter, ledgerHead, type Submission } from './store.ts';

/**
 * Entries one user may push per second on this instance, and saved up: a device back after
 * weeks offline sends its outbox at once. A refused entry costs REFUSED_COST, as a refused
 * socket update costs its user 100 records of the put-back budget (docs/sync-limits.md).
 */
export const LEDGER_PER_SECOND = 100;
export const LEDGER_BURST = 20_000;
const REFUSED_COST = 100;

const pushBody = z.object({
  entries: z
    .array(z.unknown(), { error: 'must be a list of entries' })
    .min(1, 'at least one entry')
    .max(LEDGER_PUSH_MAX, `at most ${LEDGER_PUSH_MAX} entries a push`),
});
const pullQuery = z.object({
  after: z
    .string()
    .regex(/^\d{1,18}$/, 'must be a seq (digits)')
    .default('0'),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'at least 1')
    .max(LEDGER_PAGE_MAX, `at most ${LEDGER_PAGE_MAX}`)
    .default(LEDGER_PAGE_MAX),
});

/**
 * The ledger over REST (docs/sync-rules.md "Ledger"): `POST /api/ledger` (Staff and Admins)
 * appends entries, idempotent by id; `GET /api/ledger?after=` (everyone signed in) pages
 * through them in the server's order.
 */
export function ledgerRoutes(sql: Sql, registry: DocumentRegistry) {
  const app = new Hono<AuthedEnv>();
  const budget = new UserBuckets(LEDGER_PER_SECOND, LEDGER_BURST);

  app.post('/ledger', requireWriter, validate('json', pushBody), async (c) => {
    const user = c.get('user');
    if (budget.spent(user.id)) {
      const seconds = Math.ceil(budget.wait(user.id) / 1000);
      return c.json({ message: `Too many ledger entries; try again in ${seconds} s` }, 429, { 'retry-after': String(seconds) });
    }
    let envelopes: LedgerEntryInput[];
    try {
      envelopes = c.req.valid('json').entries.map(readEnvelope);
    } catch (error) {
      if (error instanceof MalformedEntry) throw apiError(400, error.message);
      throw error;
    }
    const name = publicName(user);
    const results: (LedgerResult | null)[] = [];
    const submissions: Submission[] = [];
    for (const envelope of envelopes) {
      // [K1] Who recorded a care entry is the person who pushed it, whatever the device says.
      const record =
        envelope.collection === 'careEntries' ? { ...envelope.record, recordedBy: user.id, recordedByName: name } : envelope.record;
      const checked = checkRecord({ ...envelope, record });
      if ('problem' in checked) results.push({ id: envelope.id, outcome: 'refused', status: 400, message: checked.problem });
      else {
        results.push(null);
        submissions.push({ entry: checked, recordedBy: user.id });
      }
    }
    const appended = submissions.length > 0 ? await pushEntries(sql, registry, user.id, submissions) : undefined;
    const judged = appended?.results ?? [];
    const answered = results.map((result) => result ?? judged.shift()!);
    const refused = answered.filter((result) => result.outcome === 'refused').length;
    budget.take(user.id, answered.length - refused + refused * REFUSED_COST);
    const head = appended?.head ?? (await ledgerHead(sql));
    return c.json({ version: LEDGER_VERSION, head: String(head), results: answered } satisfies LedgerPushAnswer);
  });

  app.get('/ledger', validate('query', pullQuery), async (c) => {
    const { after, limit } = c.req.valid('query');
    const [rows, head] = await Promise.all([entriesAfter(sql, BigInt(after), limit + 1), ledgerHead(sql)]);
    const entries = rows.slice(0, limit);
    const next = entries.at(-1)?.seq ?? after;
    // The head is read beside the page: a commit between the two reads may put it behind the page.
    const newest = BigInt(next) > head ? BigInt(next) : head;
    return c.json({ version: LEDGER_VERSION, entries, next, head: String(newest), more: rows.length > limit } satisfies LedgerPage);
  });

  return app;
}
