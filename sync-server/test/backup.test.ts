import { get, type IncomingMessage } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { restoreInto, type Source, takeBackup } from '../src/backup/commands.ts';
import { BackupFileError, verifyBackup } from '../src/backup/format.ts';
import { ACCESS_FILE, readBackupAccess, writeBackupAccess } from '../src/backup/local-access.ts';
import { RestoreRefused } from '../src/backup/restore.ts';
import { openDatabase } from '../src/db/client.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { createdId, signIn, type ApiClient } from './support/client.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.ts';
import { npmRun, type NpmRunResult } from './support/npm-run.ts';
import { canonicalState, durableDocument, durableLedger, projection, verdicts } from './support/ranch-state.ts';
import { ADMIN } from './support/server.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';
import { connectDevice, whenSynced, type Device } from './support/sync-client.ts';

/** The password support/client.ts gives the accounts it creates. */
const STAFF_PASSWORD = 'a long enough password';

/** A real 1×1 PNG, and a 300 KB "photo" typed JPEG by its magic numbers. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(300_000), Buffer.from([0xff, 0xd9])]);

function sourceOf(database: TestDatabase): Source {
  return 'url' in database.options
    ? { databaseUrl: database.options.url, dataDir: '' }
    : { databaseUrl: undefined, dataDir: database.options.dataDir ?? '' };
}

/** `npm run <script> …args` as a user runs it, with the environment of `source`. */
function npmRunOn(source: Source, [script, ...args]: [string, ...string[]]): Promise<NpmRunResult> {
  return npmRun(
    script,
    args,
    source.databaseUrl ? { DATABASE_URL: source.databaseUrl } : { DATABASE_URL: undefined, RANCH_DATA_DIR: source.dataDir },
  );
}

async function photo(staff: ApiClient, bytes: Buffer): Promise<string> {
  const { uploadURL } = (await (await staff.request('/api/objects/upload', { method: 'POST' })).json()) as { uploadURL: string };
  expect((await staff.request(uploadURL, { method: 'PUT', body: new Uint8Array(bytes) })).status).toBe(200);
  const registered = await staff.request('/api/horse-photos', { method: 'PUT', json: { photoURL: uploadURL } });
  return ((await registered.json()) as { objectPath: string }).objectPath;
}

async function bytesOf(api: ApiClient, path: string): Promise<Buffer> {
  const response = await api.request(path);
  expect(response.status, path).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe.each(databaseKinds())('backup and restore (%s)', (kind) => {
  let ranch: StaffRanch;
  let device: Device;
  let restored: RunningServer | undefined;
  const targets: TestDatabase[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'ranch-backup-'));
  const file = join(folder, 'ranch.jsonl.gz');
  const photos = new Map<string, Buffer>();

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    const { staff, lookups } = ranch;
    const status = await createdId(staff, '/api/statuses', { name: 'For Sale' });
    const owner = await createdId(staff, '/api/owners', { firstName: 'Sam', lastName: 'Hill', phone: '555-0100', email: 'sam@hill.test' });
    const buyer = await createdId(staff, '/api/buyers', { firstName: 'Dee', lastName: 'Ray', phone: '', email: '' });
    const horse = (name: string, extra: Record<string, unknown>) =>
      createdId(staff, '/api/horses', {
        name,
        breedId: lookups.breed,
        colorId: lookups.color,
        genderId: lookups.gender,
        statusId: status,
        ownerId: owner,
        priceUsd: '12500.50',
        ...extra,
      });
    photos.set(await photo(staff, PNG), PNG);
    photos.set(await photo(staff, JPEG), JPEG);
    const [pngPath, jpegPath] = [...photos.keys()];
    await horse('Blaze', { photoUrl: pngPath, birthdate: '2019-04-02', notes: 'ünïcode ✓' });
    await horse('Comet', { photoUrl: jpegPath });
    const sold = await horse('Dancer', {});
    const sale = await createdId(staff, '/api/sales', {
      horseId: sold,
      buyerId: buyer,
      salePrice: '20000.00',
      downPayment: '5000.00',
      termsMonths: 6,
      interestApr: 7.25,
      scheduleStartDate: '2026-01-15',
    });
    for (const amount of ['2550.10', '2550.10']) {
      await createdId(staff, '/api/payments', { saleId: sale, amount, date: '2026-02-15', method: 'Card', memo: 'installment' });
    }
    // [K1] a care entry, projected to care_entries, comes back like every record.
    const care = await staff.request('/api/careEntries', {
      method: 'POST',
      json: { horseIds: [sold], kind: 'coggins', doneOn: '2026-01-10', nextDueOn: '2027-01-10', notes: 'Negative' },
    });
    if (care.status !== 201) throw new Error(`care entry: ${care.status}`);
    device = connectDevice(ranch.server.url, staff.cookie);
    await whenSynced(device);
  }, 120_000);

  afterAll(async () => {
    device?.destroy();
    await restored?.close();
    await ranch?.server.destroy();
    for (const target of targets) await target.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('round-trips the ranch, its photos and its accounts, backed up while the server runs and writes arrive', async () => {
    const { staff, server } = ranch;
    // Writes keep arriving during the backup; it holds a prefix of them, with its document and
    // projection of one instant.
    const during: string[] = [];
    let writing = true;
    const writer = (async () => {
      while (writing) during.push(await createdId(staff, '/api/buyers', { firstName: 'Late', lastName: `Buyer ${during.length}` }));
    })();
    while (during.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    const started = performance.now();
    const backup = await npmRunOn(sourceOf(server.database), ['backup', file]);
    const backupMs = performance.now() - started;
    writing = false;
    await writer;
    expect(backup, backup.output).toMatchObject({ code: 0 });
    expect(backup.output).toContain(kind === 'pglite' ? 'through the running server' : 'through DATABASE_URL');
    expect(statSync(file).mode & 0o777).toBe(0o600); // it holds password hashes
    // Only the holder of the token in the data folder may ask the server: not a signed-in user, not a
    // guess. A server on DATABASE_URL has no such route (the command reads Postgres itself).
    for (const headers of [{}, { cookie: staff.cookie }, { authorization: 'Bearer guessed' }] as Record<string, string>[]) {
      const { status } = await fetch(`${server.url}/api/backup`, { headers });
      expect(kind === 'pglite' ? [401] : [401, 404]).toContain(status);
    }
    const after = await projection(staff);
    const sourceDoc = await durableDocument(server.db.sql);
    const sourceLedger = await durableLedger(server.db.sql);
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    const users = await (await admin.request('/api/users')).json();

    const target = await createTestDatabase(kind);
    targets.push(target);
    const restoreStarted = performance.now();
    const summary = await restoreInto(sourceOf(target), file);
    const restoreMs = performance.now() - restoreStarted;
    expect(summary.rows).toMatchObject({ objects: 2, horses: 3, sales: 1, payments: 2, owners: 1 });
    expect(summary.rows).not.toHaveProperty('sessions');
    console.log(`backup (${kind}): npm run backup ${backupMs.toFixed(0)} ms, restore ${restoreMs.toFixed(0)} ms`);

    restored = await startServer({ database: target.options, port: 0, host: '127.0.0.1' });
    // Sessions are left out: the old cookie is signed out; the accounts' passwords still work.
    expect((await fetch(`${restored.url}/api/horses`, { headers: { cookie: staff.cookie } })).status).toBe(401);
    const staffEmail = (users as { email: string; role: string }[]).find((user) => user.role === 'Staff')?.email ?? '';
    const staffAgain = await signIn(restored.url, staffEmail, STAFF_PASSWORD);
    const adminAgain = await signIn(restored.url, ADMIN.email, ADMIN.password);
    expect(await (await adminAgain.request('/api/users')).json()).toEqual(users);

    // Every record, as REST lists it: all that existed before the backup began, and of the
    // buyers added during it, those committed before its instant (a prefix).
    const lists = await projection(staffAgain);
    const kept = new Set(Object.values(lists).flatMap((rows) => rows.map((row) => row.id as string)));
    const late = during.filter((id) => kept.has(id));
    expect(during.slice(0, late.length)).toEqual(late);
    expect(late.length).toBeGreaterThanOrEqual(3);
    expect(lists).toEqual(await projection(staff, kept));
    for (const rows of Object.values(after)) for (const row of rows) if (!during.includes(row.id as string)) expect(kept).toContain(row.id);

    // The document: the same entities as the source's, and what its projection says (one instant).
    const restoredDoc = await durableDocument(restored.db.sql);
    const restoredLedger = await durableLedger(restored.db.sql);
    expect(verdicts(restoredDoc, undefined, restoredLedger)).toEqual({ valid: verdicts(sourceDoc, kept, sourceLedger).valid, invalid: [] });
    expect(lists).toEqual(verdicts(restoredDoc, undefined, restoredLedger).valid);
    const fresh = connectDevice(restored.url, staffAgain.cookie);
    try {
      await whenSynced(fresh);
      expect(canonicalState(fresh.doc)).toBe(canonicalState(restoredDoc));
    } finally {
      fresh.destroy();
    }

    // The restored ranch takes new changes: its history and conflict ids go on after the restored ones.
    const [{ last } = { last: '0' }] = await restored.db.sql<
      { last: string }[]
    >`select coalesce(max(id), 0)::text as last from change_history`;
    expect(Number(last)).toBeGreaterThan(0);
    const added = await createdId(staffAgain, '/api/buyers', { firstName: 'After', lastName: 'Restore', phone: '', email: '' });
    const [row] = await restored.db.sql<{ id: string }[]>`select min(id)::text as id from change_history where entity_id = ${added}`;
    expect(Number(row?.id)).toBeGreaterThan(Number(last));

    // Every photo's bytes.
    for (const [path, bytes] of photos) expect((await bytesOf(staffAgain, path)).equals(bytes), path).toBe(true);

    // One format for both: a PGlite backup restores into Postgres, and a Postgres one into a data folder.
    const other = kind === 'postgres' ? 'pglite' : databaseKinds().find((each) => each !== kind);
    if (!other) return;
    const embedded = await createTestDatabase(other);
    targets.push(embedded);
    await restoreInto(sourceOf(embedded), file);
    const moved = await startServer({ database: embedded.options, port: 0, host: '127.0.0.1' });
    try {
      const staffMoved = await signIn(moved.url, staffEmail, STAFF_PASSWORD);
      expect(await projection(staffMoved)).toEqual(lists);
      for (const [path, bytes] of photos) expect((await bytesOf(staffMoved, path)).equals(bytes), path).toBe(true);
    } finally {
      await moved.close();
    }
  }, 180_000);

  it('refuses a truncated, damaged or newer file, and a target that is not empty', async () => {
    const whole = readFileSync(file);
    const empty = await createTestDatabase(kind);
    targets.push(empty);

    const truncated = join(folder, 'truncated.jsonl.gz');
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)));
    await expect(restoreInto(sourceOf(empty), truncated)).rejects.toThrow(BackupFileError);

    // Cut at a line: an intact gzip stream without the end line.
    const text = gunzipSync(whole).toString('utf8');
    const cut = join(folder, 'cut.jsonl.gz');
    writeFileSync(cut, gzipSync(text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1)));
    await expect(restoreInto(sourceOf(empty), cut)).rejects.toThrow(/truncated: it has no end line/);

    // One changed character in a row: intact gzip, wrong checksum.
    const edited = join(folder, 'edited.jsonl.gz');
    writeFileSync(edited, gzipSync(text.replace('"Blaze"', '"Blazf"')));
    await expect(restoreInto(sourceOf(empty), edited)).rejects.toThrow(/checksum does not match/);

    // A flipped byte in the compressed data.
    const flipped = Buffer.from(whole);
    const at = Math.floor(flipped.length / 2);
    flipped[at] = (flipped[at] ?? 0) ^ 0xff;
    const damaged = join(folder, 'damaged.jsonl.gz');
    writeFileSync(damaged, flipped);
    await expect(restoreInto(sourceOf(empty), damaged)).rejects.toThrow(BackupFileError);

    // Intact files this Ranch cannot read: a newer format, a migration it does not know.
    const resealed = (edit: (header: Record<string, unknown>) => void) => {
      const lines = text.split('\n').slice(0, -2); // without the end line and the final newline
      const header = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
      edit(header);
      lines[0] = JSON.stringify(header);
      const body = lines.map((line) => `${line}\n`).join('');
      const end = JSON.parse(text.split('\n').at(-2) ?? '{}') as { end: { sha256: string } };
      end.end.sha256 = createHash('sha256').update(body).digest('hex');
      const path = join(folder, `resealed-${randomBytes(4).toString('hex')}.jsonl.gz`);
      writeFileSync(path, gzipSync(`${body}${JSON.stringify(end)}\n`));
      return path;
    };
    await expect(
      restoreInto(
        sourceOf(empty),
        resealed((header) => (header.ranchBackup = 2)),
      ),
    ).rejects.toThrow(/made by a newer Ranch/);
    const newer = resealed((header) => (header.migrations as unknown[]).push({ version: 999, name: 'from the future' }));
    await expect(restoreInto(sourceOf(empty), newer)).rejects.toThrow(/taken by a newer Ranch \(migrations 999/);
    // ...and the same file resealed unchanged restores: the test's resealing is sound.
    const same = resealed(() => {});

    const notBackup = join(folder, 'notes.txt');
    writeFileSync(notBackup, 'hello');
    await expect(restoreInto(sourceOf(empty), notBackup)).rejects.toThrow(BackupFileError);

    // The first test's restored target holds a ranch: refused by npm run restore, with --force replaced.
    await restored?.close();
    restored = undefined;
    const full = targets[0];
    if (!full) throw new Error('the round trip did not run');
    const refused = await npmRunOn(sourceOf(full), ['restore', file]);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('The target is not empty');
    await expect(restoreInto(sourceOf(full), file)).rejects.toThrow(RestoreRefused);
    const replaced = await npmRunOn(sourceOf(full), ['restore', file, '--force']);
    expect(replaced, replaced.output).toMatchObject({ code: 0 });
    expect(replaced.output).toContain('(replacing what it held)');
    // With no server running, npm run backup opens the folder itself; the same ranch comes out.
    const again = await takeBackup(sourceOf(full), join(folder, 'again.jsonl.gz'));
    expect(again.via).toBe(kind === 'pglite' ? 'the folder itself (no server held it)' : 'DATABASE_URL');
    expect(again.rows).toEqual((await verifyBackup(file)).rows);

    // The empty target was never written to: a good file restores into it.
    expect((await restoreInto(sourceOf(empty), same)).replaced).toBe(false);
  }, 180_000);

  it('N11: a FILE.partial left or planted beforehand never becomes the backup (its mode, its owner, a link)', async () => {
    const source = sourceOf(ranch.server.database);
    const left = join(folder, 'left.jsonl.gz');
    writeFileSync(`${left}.partial`, 'left by an earlier run');
    chmodSync(`${left}.partial`, 0o644);
    await takeBackup(source, left);
    expect(statSync(left).mode & 0o777).toBe(0o600);

    const elsewhere = join(folder, 'elsewhere.txt');
    writeFileSync(elsewhere, 'theirs');
    chmodSync(elsewhere, 0o644);
    const linked = join(folder, 'linked.jsonl.gz');
    symlinkSync(elsewhere, `${linked}.partial`);
    await takeBackup(source, linked);
    expect(lstatSync(linked).isSymbolicLink()).toBe(false);
    expect(statSync(linked).mode & 0o777).toBe(0o600);
    expect(readFileSync(elsewhere, 'utf8')).toBe('theirs');
    expect((await verifyBackup(linked)).rows).toEqual((await verifyBackup(left)).rows);
  }, 120_000);

  it('N4: a doctored backup (a session, a secret, an HTML "photo", a retyped photo) restores without them, and says so', async () => {
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    const lines = text.split('\n').slice(0, -2); // without the end line and the final newline
    const rowsOf = (table: string) => {
      const at = lines.findIndex((line) => line.startsWith(`{"table":"${table}",`));
      const rows: Record<string, unknown>[] = [];
      for (let i = at + 1; lines[i]?.startsWith('{"row":'); i++)
        rows.push((JSON.parse(lines[i] ?? '') as { row: Record<string, unknown> }).row);
      return { at, rows };
    };
    const adminId = rowsOf('users').rows.find((row) => row.email === ADMIN.email)?.id as string;
    const planted = 'a'.repeat(32);
    const hex = (bytes: Buffer) => `\\x${bytes.toString('hex')}`;
    const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    const html = Buffer.from('<script src="/api/objects/0190f0a0-0000-7000-8000-0000000000b2"></script>');
    const script = Buffer.from('document.title = "script from a restored photo ran"');
    const objectRow = (id: string, type: string, bytes: Buffer) => ({
      id,
      owner_id: adminId,
      content_type: type,
      size: bytes.length,
      sha256: sha(bytes),
      bytes: hex(bytes),
      created_at: '2026-12-01T00:00:00+00:00',
      unreferenced_since: null,
    });
    const objects = rowsOf('objects');
    const [pngPath] = [...photos.keys()];
    const pngId = pngPath?.split('/').pop();
    const retyped = lines.findIndex((line) => line.includes(`"id": "${pngId}"`));
    lines[retyped] = (lines[retyped] ?? '').replace('"content_type": "image/png"', '"content_type": "text/html"');
    expect(lines[retyped]).toContain('text/html');
    lines.splice(
      objects.at + 1,
      0,
      JSON.stringify({ row: objectRow('0190f0a0-0000-7000-8000-0000000000b1', 'text/html', html) }),
      JSON.stringify({ row: objectRow('0190f0a0-0000-7000-8000-0000000000b2', 'text/javascript', script) }),
    );
    lines.splice(
      objects.at,
      0,
      JSON.stringify({ table: 'sessions', columns: ['id', 'user_id', 'expires_at', 'created_at'] }),
      JSON.stringify({
        row: {
          id: sha(Buffer.from(planted)),
          user_id: adminId,
          expires_at: '2031-01-01T00:00:00+00:00',
          created_at: '2026-12-01T00:00:00+00:00',
        },
      }),
      JSON.stringify({ table: 'server_secrets', columns: ['name', 'value', 'created_at'] }),
      JSON.stringify({ row: { name: 'device-cookie', value: `\\x${'00'.repeat(32)}`, created_at: '2026-12-01T00:00:00+00:00' } }),
    );
    // Sealed again as whoever doctored it would: the row counts and the checksum recomputed.
    const counts: Record<string, number> = {};
    let table = '';
    for (const line of lines.slice(1)) {
      if (line.startsWith('{"row":')) counts[table] = (counts[table] ?? 0) + 1;
      else {
        table = (JSON.parse(line) as { table: string }).table;
        counts[table] = 0;
      }
    }
    const body = lines.map((line) => `${line}\n`).join('');
    const doctored = join(folder, 'doctored.jsonl.gz');
    writeFileSync(doctored, gzipSync(`${body}${JSON.stringify({ end: { rows: counts, sha256: sha(Buffer.from(body)) } })}\n`));

    const target = await createTestDatabase(kind);
    targets.push(target);
    const run = await npmRunOn(sourceOf(target), ['restore', doctored]);
    expect(run, run.output).toMatchObject({ code: 0 });
    const said = run.output.split('\n').filter((line) => line.startsWith('  - '));
    expect(said).toEqual([
      '  - Left out table sessions (1 row): a Ranch backup never holds it',
      '  - Left out table server_secrets (1 row): a Ranch backup never holds it',
      '  - Left out photo 0190f0a0-0000-7000-8000-0000000000b1: its bytes are not a JPEG, PNG, GIF, WebP or HEIC/HEIF image',
      '  - Left out photo 0190f0a0-0000-7000-8000-0000000000b2: its bytes are not a JPEG, PNG, GIF, WebP or HEIC/HEIF image',
    ]);
    expect(run.output).toContain('so it was altered or not made by Ranch');
    expect(run.output).toContain(`Admin accounts: ${ADMIN.email}. Check that you know each one.`);

    // The document is checked whole under the sync rules at its next load, whatever the file said.
    const opened = await openDatabase(target.options);
    try {
      expect(await opened.sql`select checked_rules from docs`).toEqual([{ checked_rules: 0 }]);
    } finally {
      await opened.close();
    }
    const server = await startServer({ database: target.options, port: 0, host: '127.0.0.1' });
    try {
      expect((await server.db.sql`select 1 from sessions`).length).toBe(0);
      expect(
        (
          await server.db
            .sql`select 1 from objects where id in ('0190f0a0-0000-7000-8000-0000000000b1', '0190f0a0-0000-7000-8000-0000000000b2')`
        ).length,
      ).toBe(0);
      expect((await fetch(`${server.url}/api/auth/user`, { headers: { cookie: `ranch_session=${planted}` } })).status).toBe(401);
      const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
      const served = await admin.request(pngPath ?? '');
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
      expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
      expect((await admin.request('/api/objects/0190f0a0-0000-7000-8000-0000000000b1')).status).toBe(404);
      // Defence in depth: a row that got past every check is still never served as a page.
      await server.db.sql`update objects set content_type = 'text/html' where id = ${pngId ?? ''}`;
      const notImage = await admin.request(pngPath ?? '');
      expect(notImage.headers.get('content-type')).toBe('application/octet-stream');
      expect(notImage.headers.get('content-disposition')).toBe('attachment');
    } finally {
      await server.close();
    }
  }, 180_000);
});

it('a server starts even where it cannot write backup-access.json (a full disk): only npm run backup cannot reach it', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ranch-access-'));
  try {
    mkdirSync(join(dataDir, ACCESS_FILE)); // in the way, as ENOSPC would be
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(() => writeBackupAccess(dataDir, { url: 'http://127.0.0.1:1', token: 'a token' })).not.toThrow();
    expect(readBackupAccess(dataDir)).toBeUndefined();
    expect(readdirSync(dataDir)).toEqual([ACCESS_FILE]); // no temporary file left
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('npm run backup cannot reach this server'));
    warn.mockRestore();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describe.each(databaseKinds().filter((kind) => kind === 'pglite'))('GET /api/backup of a running server (%s)', (kind) => {
  let ranch: StaffRanch;
  let access: { url: string; token: string };
  let dataDir: string;
  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    dataDir = (ranch.server.database.options as { dataDir: string }).dataDir;
    // A history of a few MB that does not compress away: more than the socket's buffers hold.
    await ranch.server.db.sql`
      insert into change_history (seq, step, collection, entity_id, kind, field, after)
      select 1, n, 'horses', gen_random_uuid(), 'update', 'notes', to_jsonb(md5(random()::text) || md5(random()::text))
      from generate_series(1, 60000) as n`;
    const found = readBackupAccess(dataDir);
    if (!found) throw new Error('no backup-access.json');
    access = found;
  }, 120_000);
  afterAll(() => ranch?.server.destroy());

  /** The signed-in app's request: answered, or the test fails after 20 s rather than hanging. */
  const answered = async () => {
    const response = await ranch.staff.request('/api/auth/user', { signal: AbortSignal.timeout(20_000) });
    return response.status;
  };

  it('N8: HEAD takes no backup, and a reader that stops reading holds a file, not the ranch', async () => {
    const head = await fetch(`${access.url}/api/backup`, { method: 'HEAD', headers: { authorization: `Bearer ${access.token}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/gzip');
    expect(await answered()).toBe(200);

    // A reader that takes the headers and then reads nothing (a hung network share).
    const stalled = await new Promise<IncomingMessage>((resolve, reject) => {
      get(`${access.url}/api/backup`, { headers: { authorization: `Bearer ${access.token}` } }, (response) => {
        response.pause();
        resolve(response);
      }).on('error', reject);
    });
    try {
      expect(stalled.statusCode).toBe(200);
      expect(Number(stalled.headers['content-length'])).toBeGreaterThan(1024 * 1024);
      expect(await answered()).toBe(200);
      expect(await createdId(ranch.staff, '/api/buyers', { firstName: 'While', lastName: 'Stalled' })).toBeTruthy();
    } finally {
      stalled.destroy();
    }
    // What it was sent from goes with it.
    await expect.poll(() => readdirSync(dataDir).filter((name) => name.startsWith('.backup-')), { timeout: 10_000 }).toEqual([]);
  }, 120_000);
});
