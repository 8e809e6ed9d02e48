import { LEDGER_FLAGS, LEDGER_PUSH_MAX, LEDGER_VERSION, SENDER_HEADER, type LedgerResult } from '../../../../shared/index.ts';
import type { RanchNotice } from '../compensation-notices.ts';
import type { RanchDb } from '../db.ts';
import { backoffDelay, retryAfterMs } from '../photos/photo-uploader.ts';
import { knownFlags, type LedgerReadTable } from './ledger-rows.ts';
import { withdrawWaitingRow } from './kept-ledger-rows.ts';
import type { LedgerPullOptions } from './pull.ts';
import { readWaitingEntries, type WaitingEntry } from './waiting-entries.ts';

export type LedgerPushOptions = LedgerPullOptions & {
  /** The signed-in user the entries are pushed as ([A12]): another user's session answers 401. */
  senderId: string;
  /**
   * Whether to push now: the page says the device is online, and the server has every
   * change this device made to the document (a sale may name a horse or buyer made offline:
   * pushed before them, it would be refused). resume() once it turns true.
   */
  mayPush(): boolean;
  /** What the person is told: entries recorded with flags ([P13]), entries refused ([S19]). */
  onNotices(notices: RanchNotice[]): void;
  /** 401 or 403: the entries wait, kept, until the next sign-in (connect) kicks again. */
  onSignedOut(status: number): void;
  random?: () => number;
  baseDelayMs?: number;
};

export type LedgerPush = {
  /** Push what waits now; the backoff starts again from the shortest delay. */
  kick(): void;
  /** Push what waits unless a retry is already timed (mayPush turned true). */
  resume(): void;
  stop(): void;
};

type Answer = { results: LedgerResult[] };

/** The push's answer, as far as it can be trusted: one result per entry pushed, in order, for its id; else null. */
function readAnswer(body: unknown, batch: readonly WaitingEntry[]): Answer | null {
  if (typeof body !== 'object' || body === null) return null;
  const { version, results } = body as Record<string, unknown>;
  if (version !== LEDGER_VERSION || !Array.isArray(results) || results.length !== batch.length) return null;
  const fits = results.every((result: unknown, i) => {
    if (typeof result !== 'object' || result === null) return false;
    const { id, outcome, seq, message } = result as Record<string, unknown>;
    if (id !== batch[i]!.entry.id) return false;
    if (outcome === 'refused') return typeof message === 'string';
    return (outcome === 'recorded' || outcome === 'duplicate') && typeof seq === 'string' && /^\d{1,19}$/.test(seq);
  });
  return fits ? { results: results as LedgerResult[] } : null;
}

/**
 * Settles the answered entries in one transaction: a stored one leaves the outbox and its row
 * takes the server's seq and flags (the pull brings the same row); a refused one stays in the
 * outbox, marked with the reason, and its row is withdrawn ([S19]). Returns what to tell.
 */
async function settle(db: RanchDb, batch: readonly WaitingEntry[], results: readonly LedgerResult[]): Promise<RanchNotice[]> {
  const notices: RanchNotice[] = [];
  await db.transaction('rw', [db.outbox, db.sales, db.payments, db.corrections], async () => {
    for (const [i, result] of results.entries()) {
      const { seq, entry } = batch[i]!;
      const table = db.table(entry.collection as LedgerReadTable);
      const base = { collection: entry.collection as LedgerReadTable, id: entry.id, fields: entry.record as RanchNotice['fields'] };
      if (result.outcome === 'refused') {
        await db.outbox.update(seq, { refused: result.message });
        await withdrawWaitingRow(table, entry.id);
        notices.push({ ...base, action: 'refused', reason: result.message, intent: seq });
        continue;
      }
      await db.outbox.delete(seq);
      const flags = knownFlags(result.flags);
      const row = await table.get(entry.id);
      if (row && row.ledgerSeq === null) await table.put({ ...row, ledgerSeq: Number(result.seq), flags });
      if (flags.length > 0) notices.push({ ...base, action: 'flagged', reason: flags.map((flag) => LEDGER_FLAGS[flag]).join('; ') });
    }
  });
  return notices;
}

/**
 * Pushes the entries this device recorded (docs/sync-rules.md §7 "Push"), in the order
 * recorded, up to 500 a request, one push at a time, while `mayPush` says so:
 * - `recorded` / `duplicate`: settled (above); the entry's flags are told ([P13]);
 * - `refused`: kept, marked, told ([S19]); never pushed again;
 * - 401 / 403: kept; nothing more until a kick (the next sign-in);
 * - 429, 5xx, 408, a network failure or an answer that is not one: kept, tried again after a
 *   backoff (at least as long as Retry-After says);
 * - 400 or 413 for a whole push (an envelope the server does not read): the entries are
 *   pushed one at a time, and the one answered so is refused with the server's message.
 * Every step is stored before the next, and the server answers an id it has as a duplicate,
 * so no retry records anything twice.
 */
export function startLedgerPush(db: RanchDb, options: LedgerPushOptions): LedgerPush {
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  const url = options.url ?? '/api/ledger';
  const random = options.random ?? Math.random;
  let stopped = false;
  let running = false;
  let again = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let size = LEDGER_PUSH_MAX;

  const later = (serverWaitMs: number) => {
    if (stopped) return;
    const delay = Math.max(serverWaitMs, backoffDelay(attempt, random, options.baseDelayMs));
    attempt += 1;
    timer = setTimeout(() => {
      timer = null;
      void run();
    }, delay);
  };

  /** One request; true when the loop may go on. */
  const pushOnce = async (batch: WaitingEntry[]): Promise<boolean> => {
    let response: Response;
    try {
      response = await fetchFn(url, {
        method: 'POST',
        credentials: 'include',
        cache: 'no-store',
        headers: { 'content-type': 'application/json', [SENDER_HEADER]: options.senderId },
        body: JSON.stringify({ entries: batch.map((waiting) => waiting.entry) }),
      });
    } catch {
      later(0);
      return false;
    }
    if (response.status === 401 || response.status === 403) {
      options.onSignedOut(response.status);
      return false;
    }
    const body: unknown = await response.json().catch(() => null);
    if ((response.status === 400 || response.status === 413) && batch.length > 1) {
      size = 1;
      return true;
    }
    if (response.status === 400 || response.status === 413) {
      const message = (body as { message?: unknown } | null)?.message;
      const results: LedgerResult[] = [
        { id: batch[0]!.entry.id, outcome: 'refused', status: 400, message: typeof message === 'string' ? message : 'Not an entry' },
      ];
      options.onNotices(await settle(db, batch, results));
      return true;
    }
    const answer = response.ok ? readAnswer(body, batch) : null;
    if (!answer) {
      later(retryAfterMs(response.headers.get('retry-after')));
      return false;
    }
    const notices = await settle(db, batch, answer.results);
    if (notices.length > 0) options.onNotices(notices);
    attempt = 0;
    return true;
  };

  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      for (;;) {
        again = false;
        if (stopped || timer !== null || !options.mayPush()) return;
        const batch = await readWaitingEntries(db, size);
        if (batch.length === 0 || !(await pushOnce(batch))) return;
      }
    } catch (error) {
      // The database closed under us (sign-out, Clear Local Data): nothing to keep.
      if (!stopped) {
        console.error('Ledger: could not push the entries waiting; trying again later', error);
        later(0);
      }
    } finally {
      running = false;
      if (again && !stopped) void run();
    }
  };

  return {
    kick() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      attempt = 0;
      size = LEDGER_PUSH_MAX;
      void run();
    },
    resume: () => void run(),
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
