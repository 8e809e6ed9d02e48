import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as decoding from 'lib0/decoding';
import { DOC_NAME, LEDGER_PUSH_MAX, MESSAGE_LEDGER, newId, SYNC_PATH, type LedgerPage, type LedgerPushAnswer } from '../../shared/index.ts';
import { createdHorse, createdId, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN } from './support/server.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';
import { startTwoInstances } from './support/two-instances.ts';
import { saleRecord } from './support/sale-record.ts';

const createdAt = '2026-12-01T10:00:00.000Z';
const sale = (horseId: string, buyerId: string, fields: Record<string, unknown> = {}) => ({
  id: newId(),
  collection: 'sales',
  record: saleRecord({ horseId, buyerId, salePrice: '1000.00', downPayment: '0.00', createdAt, ...fields }),
});
const payment = (saleId: string, amount: string) => ({
  id: newId(),
  collection: 'payments',
  record: { saleId, amount, date: '2026-12-02', method: 'Cash', memo: null, installmentId: null, createdAt },
});
const cancel = (saleId: string) => ({
  id: newId(),
  collection: 'corrections',
  record: { kind: 'cancel', saleId, paymentId: null, amount: null, date: null, method: null, reason: 'Buyer withdrew', createdAt },
});
const care = (horseId: string) => ({
  id: newId(),
  collection: 'careEntries',
  record: {
    horseId,
    kind: 'farrier',
    doneOn: '2026-12-01',
    nextDueOn: null,
    notes: 'Shoes',
    recordedBy: newId(),
    recordedByName: 'Someone Else',
    createdAt,
  },
});

/** Issue 68: the ledger of recorded facts (docs/sync-rules.md "Ledger"). */
describe.each(databaseKinds())('the ledger (%s)', (kind) => {
  let ranch: StaffRanch;
  let staff: ApiClient;
  let buyer = '';
  let horses = 0;

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    staff = ranch.staff;
    buyer = await createdId(staff, '/api/buyers', { firstName: 'Cy', lastName: 'Buyer' });
  });
  afterAll(() => ranch.server.destroy());

  const horse = (statusId: string | null = null) => {
    const { breed: breedId, color: colorId, gender: genderId } = ranch.lookups;
    return createdId(staff, '/api/horses', { name: `Ledger ${++horses}`, breedId, colorId, genderId, statusId });
  };
  const push = async (entries: unknown, as: ApiClient = staff) => {
    const response = await as.request('/api/ledger', { method: 'POST', json: { entries } });
    return { status: response.status, body: (await response.json()) as LedgerPushAnswer & { message?: string } };
  };
  const pushed = async (entries: unknown[]) => {
    const { status, body } = await push(entries);
    expect(status).toBe(200);
    return body.results;
  };
  const pull = async (query: string, as: ApiClient = staff) => {
    const response = await as.request(`/api/ledger${query}`);
    return { status: response.status, body: (await response.json()) as LedgerPage & { message?: string } };
  };
  const statusOf = async (horseId: string) =>
    ((await (await staff.request('/api/horses')).json()) as { id: string; statusId: string | null }[]).find((h) => h.id === horseId)
      ?.statusId;
  const statusName = async (statusId: string | null | undefined) => {
    const statuses = (await (await staff.request('/api/statuses')).json()) as { id: string; name: string }[];
    return statuses.find((status) => status.id === statusId)?.name ?? null;
  };

  it('records a sale, its payment, a care entry and a correction in order, and pages through them after a cursor', async () => {
    const { head: before } = (await pull('')).body;
    const horseId = await horse();
    const sold = sale(horseId, buyer);
    const entries = [sold, payment(sold.id, '250'), care(horseId), cancel(sold.id)];
    const results = await pushed(entries);
    expect(results.map((result) => result.outcome)).toEqual(['recorded', 'recorded', 'recorded', 'recorded']);
    const seqs = results.map((result) => ('seq' in result ? BigInt(result.seq) : 0n));
    expect(seqs).toEqual([1n, 2n, 3n, 4n].map((n) => BigInt(before) + n));

    const first = await pull(`?after=${before}&limit=3`);
    expect(first.body.entries.map((entry) => entry.id)).toEqual(entries.slice(0, 3).map((entry) => entry.id));
    expect(first.body).toMatchObject({ version: 1, more: true, next: String(seqs[2]) });
    const second = await pull(`?after=${first.body.next}&limit=3`);
    expect(second.body.entries.map((entry) => entry.id)).toEqual([entries[3]!.id]);
    expect(second.body).toMatchObject({ more: false, head: String(seqs[3]) });
    // The payment as the shared schema reads it ([S14]): "250" is stored as "250.00".
    expect(first.body.entries[1]).toMatchObject({ collection: 'payments', record: { amount: '250.00' }, flags: [] });
    // [K1] Who recorded a care entry is who pushed it, whatever the device said.
    const staffUser = first.body.entries[0]!.recordedBy;
    expect(first.body.entries[2]!.record).toMatchObject({ recordedBy: staffUser, recordedByName: 'Staff Tester' });
  });

  it('[S18] marks a sold horse Sold in the document, and a cancellation gives its status back', async () => {
    const forSale = await createdId(staff, '/api/statuses', { name: 'For Sale' });
    const horseId = await horse(forSale);
    const sold = sale(horseId, buyer, { previousStatusId: forSale });
    await pushed([sold]);
    expect(await statusName(await statusOf(horseId))).toBe('Sold');
    await pushed([cancel(sold.id)]);
    expect(await statusOf(horseId)).toBe(forSale);
  });

  it('is idempotent by id: the same entry twice is one row and one answer; the same id with another record is refused', async () => {
    const horseId = await horse();
    const sold = sale(horseId, buyer);
    const paid = payment(sold.id, '100');
    const [first] = await pushed([sold, paid]);
    const again = await pushed([sold, paid]);
    expect(again.map((result) => result.outcome)).toEqual(['duplicate', 'duplicate']);
    expect(again[0]).toMatchObject({ seq: first && 'seq' in first ? first.seq : '' });
    const all = await pull('?after=0');
    expect(all.body.entries.filter((entry) => entry.id === paid.id)).toHaveLength(1);
    // Key order and a money field written another way are the same record.
    const reordered = { collection: 'payments', id: paid.id, record: { ...paid.record, amount: '100.00' } };
    expect((await pushed([reordered]))[0]).toMatchObject({ outcome: 'duplicate' });
    const changed = { ...paid, record: { ...paid.record, amount: '99' } };
    expect((await pushed([changed]))[0]).toEqual({
      id: paid.id,
      outcome: 'refused',
      status: 409,
      message: 'id: another entry with this id is recorded',
    });
    // The same id pushed twice in one push is recorded once.
    const twice = payment(sold.id, '1');
    expect((await pushed([twice, twice])).map((result) => result.outcome)).toEqual(['recorded', 'duplicate']);
  });

  it('[P13] keeps and flags an entry that breaks a rule after the fact, and tells the device', async () => {
    const horseId = await horse();
    const sold = sale(horseId, buyer);
    await pushed([sold, payment(sold.id, '900'), cancel(sold.id)]);
    // A payment recorded offline on the sale cancelled meanwhile: kept, held for the buyer.
    const late = payment(sold.id, '50');
    const [answer] = await pushed([late]);
    expect(answer).toMatchObject({ outcome: 'recorded', flags: ['saleCancelled'] });
    expect(answer && 'notes' in answer ? answer.notes : []).toEqual([
      'The sale was cancelled meanwhile: the payment is held for the buyer as credit',
    ]);
    expect((await pull('?after=0')).body.entries.find((entry) => entry.id === late.id)?.flags).toEqual(['saleCancelled']);
    // A second cancellation, a second sale of a horse whose sale stands, an overpayment.
    expect((await pushed([cancel(sold.id)]))[0]).toMatchObject({ outcome: 'recorded', flags: ['alreadyCancelled'] });
    const other = await horse();
    const first = sale(other, buyer);
    const second = sale(other, buyer);
    const results = await pushed([first, second, payment(first.id, '1200')]);
    expect(results.map((result) => ('flags' in result ? result.flags : result.outcome))).toEqual([[], ['horseAlreadySold'], ['overpaid']]);
  });

  it('orders concurrent pushes by commit: seqs with no gaps, every entry once after any cursor', async () => {
    const { head: before } = (await pull('')).body;
    const horseId = await horse();
    const admin = await signIn(ranch.server.url, ADMIN.email, ADMIN.password);
    const pushers = [staff, admin, await signInAs(ranch.server.url, admin, 'Staff')];
    const batches = Array.from({ length: 9 }, () => [care(horseId), care(horseId)]);
    const answers = await Promise.all(batches.map((entries, index) => push(entries, pushers[index % pushers.length])));
    const seqs = answers.flatMap(({ body }) => body.results.map((result) => ('seq' in result ? BigInt(result.seq) : 0n)));
    expect(seqs.toSorted((a, b) => (a < b ? -1 : 1))).toEqual(seqs.map((_, index) => BigInt(before) + BigInt(index) + 1n));
    // Each push's entries are consecutive, in the order sent.
    for (const [first, second] of answers.map(({ body }) => body.results.map((result) => ('seq' in result ? BigInt(result.seq) : 0n)))) {
      expect(second).toBe((first ?? 0n) + 1n);
    }
    const ids = new Set(batches.flat().map((entry) => entry.id));
    const pulled = (await pull(`?after=${before}`)).body.entries;
    expect(pulled.map((entry) => entry.id).filter((id) => ids.has(id))).toHaveLength(ids.size);
  });

  it('refuses an entry naming what does not exist, and records the rest of the push', async () => {
    const horseId = await horse();
    const good = care(horseId);
    const results = await pushed([payment(newId(), '5'), care(newId()), good, sale(horseId, newId())]);
    expect(results.map((result) => (result.outcome === 'refused' ? [result.status, result.message] : result.outcome))).toEqual([
      [404, 'saleId: no such sale in the ledger'],
      [404, 'horseId: no such horse'],
      'recorded',
      [404, 'buyerId: no such buyer'],
    ]);
  });

  it('refuses Viewers (403) and anyone signed out (401); Viewers read', async () => {
    const admin = await signIn(ranch.server.url, ADMIN.email, ADMIN.password);
    const viewer = await signInAs(ranch.server.url, admin, 'Viewer');
    const horseId = await horse();
    expect((await push([care(horseId)], viewer)).status).toBe(403);
    expect((await pull('?after=0', viewer)).status).toBe(200);
    expect((await fetch(`${ranch.server.url}/api/ledger`)).status).toBe(401);
    expect((await push([care(horseId)], admin)).status).toBe(200);
  });

  it('answers malformed and hostile input with a 4xx and a clear message, never a 5xx', async () => {
    const horseId = await horse();
    const raw = (body: string) =>
      staff
        .request('/api/ledger', { method: 'POST', body, headers: { 'content-type': 'application/json' } })
        .then(async (r) => [r.status, (await r.json()).message]);
    expect(await raw('{not json')).toEqual([400, expect.stringMatching(/json/i)]);
    expect((await push('x')).body.message).toBe('entries: must be a list of entries');
    expect(await push([])).toMatchObject({ status: 400, body: { message: 'entries: at least one entry' } });
    const tooMany = Array.from({ length: LEDGER_PUSH_MAX + 1 }, () => care(horseId));
    expect(await push(tooMany)).toMatchObject({ status: 400, body: { message: `entries: at most ${LEDGER_PUSH_MAX} entries a push` } });
    expect(await push([{ ...care(horseId), id: 'NOT-A-UUID' }])).toMatchObject({
      status: 400,
      body: { message: 'entries.0.id: must be a lowercase UUID' },
    });
    expect(await push([{ ...care(horseId), collection: 'horses' }])).toMatchObject({ status: 400 });
    expect(await push([{ ...care(horseId), extra: 1 }])).toMatchObject({
      status: 400,
      body: { message: 'entries.0.extra: not a field of an entry' },
    });
    expect(await push([null])).toMatchObject({ status: 400 });
    expect(await push([{ ...care(horseId), record: [] }])).toMatchObject({ status: 400 });
    // A record that fails its schema is refused alone, with the schema's message.
    const bad = [
      { ...care(horseId), record: { ...care(horseId).record, junk: 'x' } },
      { ...care(horseId), record: { ...care(horseId).record, notes: { nested: true } } },
      { ...care(horseId), record: { ...care(horseId).record, kind: 'magic' } },
      payment(newId(), '-5'),
      { ...care(horseId), record: { ...care(horseId).record, notes: 'x'.repeat(100_000) } },
    ];
    const results = (await push(bad)).body.results;
    expect(results.map((result) => result.outcome === 'refused' && result.status)).toEqual([400, 400, 400, 400, 400]);
    expect(results[0]).toMatchObject({ message: 'junk: not a field of this record' });
    expect(results[3]).toMatchObject({ message: expect.stringContaining('Must not be negative') });
    // Text Postgres cannot store in jsonb: refused alone, as the schema's refusals are.
    const nul = await push([{ ...care(horseId), record: { ...care(horseId).record, notes: 'a\u0000b' } }, care(horseId)]);
    expect(nul.status).toBe(200);
    expect(nul.body.results.map((result) => result.outcome)).toEqual(['refused', 'recorded']);
    const surrogate = await raw(JSON.stringify({ entries: [{ ...care(horseId), record: { ...care(horseId).record, notes: '\ud800' } }] }));
    expect(surrogate).toEqual([200, undefined]);
    const answer = (await push([{ ...care(horseId), record: { ...care(horseId).record, notes: '\ud800' } }])).body.results[0];
    expect(answer).toMatchObject({ outcome: 'refused', status: 400, message: 'notes: Must be valid text' });
    // Pull parameters.
    expect((await pull('?after=-1')).status).toBe(400);
    expect((await pull('?after=99999999999999999999')).status).toBe(400);
    expect((await pull('?limit=0')).status).toBe(400);
    expect((await pull('?limit=abc')).status).toBe(400);
    expect((await pull('?after=999999999')).body.entries).toEqual([]);
  });

  it('tells every connected device the new head once the entries are committed', async () => {
    const socket = await ledgerHeads(ranch.server.url, staff.cookie);
    // The app as it is, which does not read the ledger yet, is sent nothing new.
    const app = await ledgerHeads(ranch.server.url, staff.cookie, 'ack=1');
    try {
      const horseId = await horse();
      const results = await pushed([care(horseId)]);
      const seq = results[0] && 'seq' in results[0] ? results[0].seq : '';
      await expect.poll(() => socket.heads).toContain(seq);
      // Committed before announced: the head named is there to pull.
      const page = await pull(`?after=${BigInt(seq) - 1n}`);
      expect(page.body.entries.map((entry) => entry.seq)).toEqual([seq]);
      const later = await pushed([care(horseId)]);
      await expect.poll(() => socket.heads).toContain(later[0] && 'seq' in later[0] ? later[0].seq : '');
      expect(app.heads).toEqual([]);
    } finally {
      socket.close();
      app.close();
    }
  });

  it("[S18] brings a sale's horse status to the document again when a push of it is repeated after a failure", async () => {
    const forSale = await createdId(staff, '/api/statuses', { name: `For Sale ${horses}` });
    const horseId = await horse(forSale);
    const sold = sale(horseId, buyer, { previousStatusId: forSale });
    await pushed([sold]);
    const soldStatus = await statusOf(horseId);
    // As if the document's commit had failed after the ledger's: the status never arrived.
    const { breed: breedId, color: colorId, gender: genderId } = ranch.lookups;
    const name = `Ledger ${horses}`;
    expect(
      (await staff.request(`/api/horses/${horseId}`, { method: 'PUT', json: { name, breedId, colorId, genderId, statusId: forSale } }))
        .status,
    ).toBe(200);
    await ranch.server.db.sql`update ledger set effects_pending = true where id = ${sold.id}`;
    expect((await pushed([sold]))[0]).toMatchObject({ outcome: 'duplicate' });
    expect(await statusOf(horseId)).toBe(soldStatus);
    expect(await ranch.server.db.sql`select effects_pending from ledger where id = ${sold.id}`).toEqual([{ effects_pending: false }]);
    // Once it reached the document, a repeated push changes nothing there.
    expect(
      (await staff.request(`/api/horses/${horseId}`, { method: 'PUT', json: { name, breedId, colorId, genderId, statusId: forSale } }))
        .status,
    ).toBe(200);
    await pushed([sold]);
    expect(await statusOf(horseId)).toBe(forSale);
  });

  it("refuses pushes past the user's budget with 429 and when to try again", async () => {
    const admin = await signIn(ranch.server.url, ADMIN.email, ADMIN.password);
    const spender = await signInAs(ranch.server.url, admin, 'Staff');
    // Every refused entry costs 100 of the 20,000 saved up.
    const refused = Array.from({ length: 201 }, () => payment(newId(), '1'));
    expect((await push(refused.slice(0, 150), spender)).status).toBe(200);
    expect((await push(refused.slice(150), spender)).status).toBe(200);
    const response = await spender.request('/api/ledger', { method: 'POST', json: { entries: [care(await horse())] } });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await response.json()) as { message: string }).message).toMatch(/^Too many ledger entries; try again in \d+ s$/);
    // Others are not held back.
    expect((await push([care(await horse())])).status).toBe(200);
  });
});

/** A sync socket (by default one that asked for the ledger's head), collecting the ledger heads it is told. */
async function ledgerHeads(url: string, cookie: string, query = 'ack=1&ledger=1'): Promise<{ heads: string[]; close(): void }> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}${SYNC_PATH}/${DOC_NAME}?${query}`, { headers: { cookie } });
  const heads: string[] = [];
  socket.on('message', (data: Buffer) => {
    const decoder = decoding.createDecoder(new Uint8Array(data));
    if (decoding.readVarUint(decoder) === MESSAGE_LEDGER) heads.push(decoding.readVarString(decoder));
  });
  await new Promise((resolve) => socket.once('message', resolve));
  return { heads, close: () => socket.close() };
}

describe.runIf(process.env.DATABASE_URL)('the ledger across instances', () => {
  it('tells the devices on another instance the new head, through Postgres, after the commit', async () => {
    const instances = await startTwoInstances('postgres');
    try {
      const staff = await signInAs(instances.one.url, instances.admin, 'Staff');
      const horseId = await createdHorse(staff, 'Far');
      const elsewhere = await ledgerHeads(instances.two.url, staff.cookie);
      try {
        const response = await staff.request('/api/ledger', { method: 'POST', json: { entries: [care(horseId)] } });
        const [result] = ((await response.json()) as LedgerPushAnswer).results;
        await expect.poll(() => elsewhere.heads).toEqual([result && 'seq' in result ? result.seq : '']);
      } finally {
        elsewhere.close();
      }
    } finally {
      await instances.stop();
    }
  });
});
