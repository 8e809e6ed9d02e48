import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/index.ts';
import { restoreInto, takeBackup, type Source } from '../src/backup/commands.ts';
import { openDatabase } from '../src/db/client.ts';
import { createdId } from './support/client.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';
import { saleRecord } from './support/sale-record.ts';

function sourceOf(database: TestDatabase): Source {
  return 'url' in database.options
    ? { databaseUrl: database.options.url, dataDir: '' }
    : { databaseUrl: undefined, dataDir: database.options.dataDir ?? '' };
}

const LEDGER_ROWS = `select seq::text, id::text, collection, record, recorded_by::text, received_at, to_jsonb(flags) as flags, effects_pending
  from ledger order by seq`;

/** Issue 68: the ledger goes into every backup, and a restore checks each entry as a push is checked. */
describe.each(databaseKinds())('the ledger in backups (%s)', (kind) => {
  let ranch: StaffRanch;
  const targets: TestDatabase[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'ranch-ledger-backup-'));

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
  });
  afterAll(async () => {
    await ranch.server.destroy();
    for (const target of targets) await target.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  async function restored(file: string) {
    const target = await createTestDatabase(kind);
    targets.push(target);
    const summary = await restoreInto(sourceOf(target), file);
    const db = await openDatabase(target.options);
    try {
      return { summary, rows: await db.sql.unsafe(LEDGER_ROWS) };
    } finally {
      await db.close();
    }
  }

  it('round-trips every entry with its seq, author, time and flags; a doctored entry is left out and said', async () => {
    const { staff, lookups } = ranch;
    const buyerId = await createdId(staff, '/api/buyers', { firstName: 'Eve', lastName: 'Buyer' });
    const horseId = await createdId(staff, '/api/horses', {
      name: 'Backed up',
      breedId: lookups.breed,
      colorId: lookups.color,
      genderId: lookups.gender,
    });
    const saleId = newId();
    const createdAt = '2026-12-01T00:00:00.000Z';
    const sale = saleRecord({ horseId, buyerId, salePrice: '400', createdAt });
    const payment = { saleId, amount: '500', date: '2026-12-02', method: 'ACH', memo: 'All of it', installmentId: null, createdAt };
    const paymentId = newId();
    const pushed = await staff.request('/api/ledger', {
      method: 'POST',
      json: {
        entries: [
          { id: saleId, collection: 'sales', record: sale },
          { id: paymentId, collection: 'payments', record: payment },
        ],
      },
    });
    expect(pushed.status).toBe(200);
    const before = await ranch.server.db.sql.unsafe(LEDGER_ROWS);
    expect(before.map((row) => row.flags)).toEqual([[], ['overpaid']]);

    const file = join(folder, 'ledger.jsonl.gz');
    await takeBackup(sourceOf(ranch.server.database), file);
    const { summary, rows } = await restored(file);
    expect(summary.rows).toMatchObject({ ledger: 2 });
    expect(summary.dropped).toEqual([]);
    expect(rows).toEqual(before);

    // An entry changed in the file and sealed again, as whoever doctored it would.
    const text = gunzipSync(readFileSync(file)).toString();
    const lines = text.split('\n').slice(0, -2); // without the end line and the final newline
    // The ledger's row of the payment (the change history names the payment too).
    const ledgerTable = lines.findIndex(
      (line) => !line.startsWith('{"row":') && (JSON.parse(line) as { table?: string }).table === 'ledger',
    );
    const at = lines.findIndex((line, index) => index > ledgerTable && line.startsWith('{"row":') && line.includes(paymentId));
    lines[at] = (lines[at] ?? '').replace('"500.00"', '"-5"');
    expect(lines[at]).toContain('"-5"');
    const sealed = lines.map((line) => `${line}\n`).join('');
    const counts: Record<string, number> = {};
    let table = '';
    for (const line of lines.slice(1)) {
      if (line.startsWith('{"row":')) counts[table] = (counts[table] ?? 0) + 1;
      else counts[(table = (JSON.parse(line) as { table: string }).table)] = 0;
    }
    const sha = createHash('sha256').update(sealed).digest('hex');
    const doctored = join(folder, 'doctored.jsonl.gz');
    writeFileSync(doctored, gzipSync(`${sealed}${JSON.stringify({ end: { rows: counts, sha256: sha } })}\n`));
    const again = await restored(doctored);
    expect(again.summary.dropped).toEqual([
      `Left out ledger entry ${paymentId}: its record is not valid (amount: Must not be negative: type the amount without a minus sign)`,
    ]);
    expect(again.rows.map((row) => row.id)).toEqual([saleId]);
  });
});
