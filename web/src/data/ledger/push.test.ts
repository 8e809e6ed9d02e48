import { afterEach, describe, expect, it, vi } from 'vitest';
import { newId } from '../../../../shared/index.ts';
import type { RanchNotice } from '../compensation-notices.ts';
import { openRanchDb, type RanchDb } from '../db.ts';
import { makeIntent } from '../outbox/intent.ts';
import { entryRecord } from './ledger-book.ts';
import { startLedgerPush, type LedgerPush } from './push.ts';
import { storeWaitingEntries } from './waiting-entries.ts';

const SALE = newId();
let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

let counter = 0;
function openDb(): RanchDb {
  const db = openRanchDb(`ledger-push-${++counter}`);
  cleanups.push(() => db.delete());
  return db;
}

/** A payment recorded on this device, waiting: its intent with its entry, and its row. */
async function waitingPayment(db: RanchDb, amount: string): Promise<string> {
  const input = { saleId: SALE, amount, date: '2026-12-02', method: 'Cash' };
  const intent = makeIntent('payments', 'create', [input]);
  const seq = (await db.outbox.add(intent)) as number;
  const record = entryRecord('payments', { ...input, memo: null, installmentId: null, createdAt: '2026-12-02T10:00:00.000Z' });
  await storeWaitingEntries(db, [{ seq, table: 'payments', id: intent.creates[0]!, record }]);
  return intent.creates[0]!;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> };
const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({ status, body, headers });

/** A push whose requests `answer` answers in turn; what each pushed is in `pushed`. */
function pushWith(db: RanchDb, answer: (ids: string[]) => Answer) {
  const pushed: string[][] = [];
  const told: RanchNotice[] = [];
  const signedOut: number[] = [];
  const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const ids = (JSON.parse(String(init?.body)) as { entries: { id: string }[] }).entries.map((entry) => entry.id);
    pushed.push(ids);
    const { status, body, headers } = answer(ids);
    return new Response(JSON.stringify(body), { status, headers });
  }) as unknown as typeof globalThis.fetch;
  const push: LedgerPush = startLedgerPush(db, {
    fetch,
    url: '/api/ledger',
    senderId: 'user-1',
    mayPush: () => true,
    onNotices: (notices) => told.push(...notices),
    onSignedOut: (status) => signedOut.push(status),
    baseDelayMs: 1,
    random: () => 0,
  });
  cleanups.push(() => push.stop());
  return { push, pushed, told, signedOut, fetch };
}

const recorded = (id: string, seq: number, flags: string[] = []) => ({ id, outcome: 'recorded', seq: String(seq), flags, notes: [] });
const ok = (results: unknown[]) => json(200, { version: 1, head: '99', results });

describe('pushing what this device recorded', () => {
  it('[P13] [S19] settles each answer: a recorded entry takes its seq and flags; a refused one is withdrawn, kept and told; 401 waits for a kick', async () => {
    const db = openDb();
    const kept = await waitingPayment(db, '10');
    const refused = await waitingPayment(db, '20');
    let signedIn = false;
    const { push, pushed, told, signedOut } = pushWith(db, ([first, second]) =>
      signedIn
        ? ok([
            recorded(first!, 7, ['overpaid']),
            { id: second, outcome: 'refused', status: 404, message: 'saleId: no such sale in the ledger' },
          ])
        : json(401, { message: 'Unauthorized' }),
    );
    push.kick();
    await vi.waitFor(() => expect(signedOut).toEqual([401]));
    expect(await db.outbox.count()).toBe(2);
    expect(pushed).toHaveLength(1);

    signedIn = true;
    push.kick();
    await vi.waitFor(() => expect(told).toHaveLength(2));
    expect(pushed).toEqual([
      [kept, refused],
      [kept, refused],
    ]);
    expect(await db.payments.get(kept)).toMatchObject({ amount: '10.00', ledgerSeq: 7, flags: ['overpaid'] });
    expect(await db.payments.get(refused)).toBeUndefined();
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({ creates: [refused], refused: 'saleId: no such sale in the ledger' }),
    ]);
    expect(told).toEqual([
      expect.objectContaining({ id: kept, action: 'flagged', reason: 'More than the balance: the excess is held for the buyer as credit' }),
      expect.objectContaining({ id: refused, action: 'refused', reason: 'saleId: no such sale in the ledger' }),
    ]);
    // Never pushed again.
    push.kick();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(1));
    expect(pushed).toHaveLength(2);
  });

  it('[P14] keeps the entries through 503, 429 and an answer that is not one, and tries again until recorded', async () => {
    const db = openDb();
    const id = await waitingPayment(db, '10');
    const answers = [
      json(503, { message: 'Busy' }),
      json(429, { message: 'Too many' }, { 'retry-after': '0' }),
      ok([recorded(newId(), 1)]), // not this entry's id
      json(200, { version: 2 }),
    ];
    const { push, pushed } = pushWith(db, ([first]) => answers.shift() ?? ok([recorded(first!, 3)]));
    push.kick();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(pushed).toHaveLength(5);
    expect((await db.payments.get(id))?.ledgerSeq).toBe(3);
  });

  it('pushes at most 500 entries a request, in the order recorded; a whole push refused as malformed goes one at a time', async () => {
    const db = openDb();
    const ids: string[] = [];
    for (let i = 0; i < 501; i++) ids.push(await waitingPayment(db, String(i + 1)));
    const { push, pushed, told } = pushWith(db, (batch) => {
      if (batch.length === 500) return ok(batch.map((id, i) => recorded(id, i + 1)));
      return json(400, { message: 'entries.0.record: not an object' });
    });
    push.kick();
    await vi.waitFor(() => expect(told).toHaveLength(1));
    expect(pushed.map((batch) => batch.length)).toEqual([500, 1]);
    expect(pushed.flat()).toEqual(ids);
    expect(told[0]).toMatchObject({ id: ids[500], action: 'refused', reason: 'entries.0.record: not an object' });
    expect(await db.outbox.count()).toBe(1);

    // Split: two left, the push as a whole refused, then each alone.
    const a = await waitingPayment(db, '1');
    const b = await waitingPayment(db, '2');
    const split = pushWith(db, (batch) => (batch.length > 1 ? json(413, { message: 'Too large' }) : ok([recorded(batch[0]!, 600)])));
    split.push.kick();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(1));
    expect(split.pushed).toEqual([[a, b], [a], [b]]);
  });
});
