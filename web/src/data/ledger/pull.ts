import * as decoding from 'lib0/decoding';
import { LEDGER_PAGE_MAX, LEDGER_VERSION, MESSAGE_LEDGER } from '../../../../shared/index.ts';
import type { RanchDb } from '../db.ts';
import type { SyncConnection } from '../sync.ts';
import { ledgerRow } from './entry-row.ts';
import { LEDGER_CURSOR_KEY, LEDGER_READ_TABLES, type LedgerReadTable } from './ledger-rows.ts';

export { LEDGER_CURSOR_KEY };

const DIGITS = /^\d{1,19}$/;
const isDigits = (value: unknown): value is string => typeof value === 'string' && DIGITS.test(value);

export type LedgerPullOptions = {
  /** `GET /api/ledger`'s address; the app's origin by default. */
  url?: string;
  /** For tests in Node, which send the session cookie themselves. */
  fetch?: typeof globalThis.fetch;
};

export async function readLedgerCursor(db: RanchDb): Promise<string> {
  const stored = (await db.meta.get(LEDGER_CURSOR_KEY))?.value;
  return isDigits(stored) ? stored : '0';
}

/** What one pull did: `pulled` up to the head; `offline` (not reached, not answered, or not an answer): the cursor stays. */
export type PullOutcome = { kind: 'pulled'; cursor: string; entries: number; skipped: number } | { kind: 'offline' };

type PageEntry = { seq: string; id: unknown; collection: unknown; record: unknown; flags: unknown };
type Page = { entries: PageEntry[]; next: string; more: boolean };

/** The page as far as it can be trusted: null when its frame is wrong (then nothing of it is written). */
function readPage(body: unknown, after: string): Page | null {
  if (typeof body !== 'object' || body === null) return null;
  const { version, entries, next, more } = body as Record<string, unknown>;
  if (version !== LEDGER_VERSION || !Array.isArray(entries) || !isDigits(next) || typeof more !== 'boolean') return null;
  if (entries.length > LEDGER_PAGE_MAX || BigInt(next) < BigInt(after)) return null;
  let last = BigInt(after);
  for (const entry of entries) {
    const seq = (entry as { seq?: unknown } | null)?.seq;
    // In seq order, after the cursor, up to `next`: else the page would move the cursor past entries it lacks.
    if (!isDigits(seq) || BigInt(seq) <= last || BigInt(seq) > BigInt(next)) return null;
    last = BigInt(seq);
  }
  return { entries: entries as PageEntry[], next, more };
}

/**
 * Pulls the ledger from the device's cursor into the read database, a page of up to 1000
 * entries at a time, each page's rows and the cursor after it in one transaction: a pull
 * cut short anywhere starts again after the last page stored, and a page stored twice
 * writes the same rows. An entry that is not a valid record of a collection the device
 * reads is left out (and logged); the cursor moves past it, as the projection leaves out an
 * invalid record of the document.
 */
export async function pullLedger(db: RanchDb, options: LedgerPullOptions = {}): Promise<PullOutcome> {
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  const url = options.url ?? '/api/ledger';
  let cursor = await readLedgerCursor(db);
  let entries = 0;
  let skipped = 0;
  for (;;) {
    let page: Page | null;
    try {
      const response = await fetchFn(`${url}?after=${cursor}&limit=${LEDGER_PAGE_MAX}`, { credentials: 'include' });
      if (!response.ok) return { kind: 'offline' };
      page = readPage(await response.json(), cursor);
    } catch {
      return { kind: 'offline' };
    }
    if (page === null) {
      console.warn('Ledger: the server answered a pull with something else than a page; trying again later');
      return { kind: 'offline' };
    }
    const rows = new Map<LedgerReadTable, Record<string, unknown>[]>(LEDGER_READ_TABLES.map((table) => [table, []]));
    for (const entry of page.entries) {
      const reading = ledgerRow(entry.id, entry.collection, entry.record, Number(entry.seq), entry.flags);
      if (reading.valid) rows.get(reading.table)!.push(reading.row);
      else if (entry.collection !== 'careEntries') {
        skipped++;
        console.warn(`Ledger: entry ${entry.seq} left out (${reading.problem})`);
      }
    }
    const from = cursor;
    const stored = await db.transaction('rw', [db.sales, db.payments, db.corrections, db.meta], async () => {
      // Another pull (a second data layer on this device) went further meanwhile: its rows stand.
      if (BigInt(await readLedgerCursor(db)) > BigInt(from)) return false;
      for (const [table, list] of rows) if (list.length > 0) await db.table(table).bulkPut(list);
      await db.meta.put({ key: LEDGER_CURSOR_KEY, value: page.next });
      return true;
    });
    cursor = stored ? page.next : await readLedgerCursor(db);
    if (stored) entries += page.entries.length;
    if (!page.more || !stored) return { kind: 'pulled', cursor, entries, skipped };
  }
}

/**
 * Keeps the read database's ledger records current while the socket runs: pulls on every
 * (re)connect (a notice sent while the device was away is not sent again) and on each
 * MESSAGE_LEDGER naming a head beyond the cursor. One pull at a time; a notice during one
 * pulls once more after it. The frame is untrusted: anything but a decimal head is ignored.
 * Returns the function that stops it.
 */
export function startLedgerPull(sync: SyncConnection, db: RanchDb, options: LedgerPullOptions = {}): () => void {
  let stopped = false;
  let running = false;
  let again = false;
  let cursor: bigint | null = null;
  const run = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const outcome = await pullLedger(db, options);
      if (outcome.kind === 'pulled') cursor = BigInt(outcome.cursor);
    } catch {
      // The database closed under us (sign-out, Clear Local Data): nothing to keep.
    } finally {
      running = false;
      if (again && !stopped) {
        again = false;
        void run();
      }
    }
  };
  const { provider } = sync;
  provider.messageHandlers[MESSAGE_LEDGER] = (_encoder, decoder) => {
    let head: string;
    try {
      head = decoding.readVarString(decoder);
    } catch {
      return;
    }
    if (!isDigits(head) || (cursor !== null && BigInt(head) <= cursor)) return;
    void run();
  };
  const onStatus = ({ status }: { status: string }) => {
    if (status === 'connected') void run();
  };
  provider.on('status', onStatus);
  if (provider.wsconnected) void run();
  return () => {
    stopped = true;
    provider.off('status', onStatus);
  };
}
