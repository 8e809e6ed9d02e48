import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPhotoSweeper, sweepPhotos } from '../src/storage/photo-sweep.ts';
import { createdId, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN } from './support/server.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';

/** A "photo" of `size` bytes, typed JPEG by its magic numbers. */
const jpeg = (size: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(size - 6), Buffer.from([0xff, 0xd9])]);

const KB = 1000;
const QUOTA = 100 * KB;

async function uploadURL(as: ApiClient): Promise<{ uploadURL: string; objectPath: string }> {
  const response = await as.request('/api/objects/upload', { method: 'POST' });
  expect(response.status).toBe(200);
  return response.json();
}

const put = (as: ApiClient, url: string, bytes: Buffer) =>
  as.request(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': 'image/jpeg' } });

/** Uploads `bytes` and answers the photo's object path (throws unless stored). */
async function stored(as: ApiClient, bytes: Buffer): Promise<string> {
  const upload = await uploadURL(as);
  const response = await put(as, upload.uploadURL, bytes);
  if (response.status !== 200) throw new Error(`PUT: ${response.status} ${await response.text()}`);
  return upload.objectPath;
}

describe.each(databaseKinds())('photo quota and clean-up (%s)', (kind) => {
  let ranch: StaffRanch;
  let admin: ApiClient;
  const idOf = (path: string) => path.split('/').pop() as string;
  const sql = () => ranch.server.db.sql;
  const exists = async (path: string) => (await ranch.server.db.sql`select 1 from objects where id = ${idOf(path)}`).length === 1;
  /** What the sweep does after the grace: the photo's mark moved back 8 days. */
  const markedLongAgo = async (path: string) => {
    await sql()`update objects set unreferenced_since = now() - interval '8 days' where id = ${idOf(path)}`;
  };
  const horse = (as: ApiClient, photoUrl: string) =>
    createdId(as, '/api/horses', {
      name: 'Blaze',
      breedId: ranch.lookups.breed,
      colorId: ranch.lookups.color,
      genderId: ranch.lookups.gender,
      photoUrl,
    });

  beforeAll(async () => {
    ranch = await startStaffRanch(kind, { photoQuotaBytes: QUOTA });
    admin = await signIn(ranch.server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => ranch.server.destroy());

  it('[I7] a photo that would take a user past their quota is refused with 413 and a message, nothing stored, the URL still usable', async () => {
    const user = await signInAs(ranch.server.url, admin, 'Staff');
    const firstBytes = jpeg(60 * KB);
    const firstUpload = await uploadURL(user);
    expect((await put(user, firstUpload.uploadURL, firstBytes)).status).toBe(200);
    const first = firstUpload.objectPath;
    const second = await uploadURL(user);
    const refused = await put(user, second.uploadURL, jpeg(60 * KB));
    expect(refused.status).toBe(413);
    expect((await refused.json()).message).toMatch(
      /^Photo storage full: your photos take 59 KB of your 98 KB, and this one needs 59 KB\. Photos that no horse shows any more are removed 7 days later\.$/,
    );
    expect(await exists(second.objectPath)).toBe(false);
    expect((await user.request(second.objectPath)).status).toBe(404);

    // A smaller one still fits; then, full, a retry of stored bytes (a lost answer) is still answered as before.
    await stored(user, jpeg(30 * KB));
    const retried = await put(user, firstUpload.uploadURL, firstBytes);
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ objectPath: first });
    // Another user has a quota of their own.
    const other = await signInAs(ranch.server.url, admin, 'Staff');
    await stored(other, jpeg(60 * KB));

    // Once a photo is gone (removed by the clean-up), the refused URL takes the photo.
    await sql()`delete from objects where id = ${idOf(first)}`;
    expect((await put(user, second.uploadURL, jpeg(60 * KB))).status).toBe(200);
    expect(await exists(second.objectPath)).toBe(true);
  });

  it('[I7] a full user is refused before the body is read, and two racing uploads cannot both slip under the quota', async () => {
    const user = await signInAs(ranch.server.url, admin, 'Staff');
    const [a, b] = [await uploadURL(user), await uploadURL(user)];
    const answers = await Promise.all([put(user, a.uploadURL, jpeg(60 * KB)), put(user, b.uploadURL, jpeg(60 * KB))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 413]);

    const [row] = await sql()<{ used: string }[]>`select sum(size)::text as used from objects where owner_id = (
      select owner_id from objects where id in ${sql()([idOf(a.objectPath), idOf(b.objectPath)])} limit 1)`;
    expect(Number(row?.used)).toBeLessThanOrEqual(QUOTA);

    await stored(user, jpeg(40 * KB)); // exactly full
    const late = await uploadURL(user);
    const refused = await put(user, late.uploadURL, jpeg(1 * KB));
    expect(refused.status).toBe(413);
    // Its body is read to the end (and thrown away), so the connection stays good for the next request.
    expect(refused.headers.get('connection')).not.toBe('close');
  });

  it('[I8] a sweep removes a photo no record has named for the grace; named and recent ones stay', async () => {
    const user = await signInAs(ranch.server.url, admin, 'Staff');
    const orphan = await stored(user, jpeg(10 * KB));
    const shown = await stored(user, jpeg(10 * KB));
    const recent = await stored(user, jpeg(10 * KB));
    await horse(user, shown);

    const first = await sweepPhotos(sql());
    expect(first).toMatchObject({ skipped: false, deleted: [] });
    await markedLongAgo(orphan);
    // A photo a horse names never keeps a mark, however old.
    await markedLongAgo(shown);

    const second = await sweepPhotos(sql());
    expect(second).toMatchObject({ skipped: false, deleted: [idOf(orphan)] });
    expect(await exists(orphan)).toBe(false);
    expect((await user.request(orphan)).status).toBe(404);
    expect(await exists(shown)).toBe(true);
    expect((await user.request(shown)).status).toBe(200);
    expect(await exists(recent)).toBe(true);
    const [row] = await sql()<{ mark: Date | null }[]>`select unreferenced_since as mark from objects where id = ${idOf(shown)}`;
    expect(row).toEqual({ mark: null });
  });

  it('[I8] the photo of a deleted horse is removed once the grace has passed since the deletion', async () => {
    const user = await signInAs(ranch.server.url, admin, 'Staff');
    const photo = await stored(user, jpeg(10 * KB));
    const id = await horse(user, photo);
    await sweepPhotos(sql());
    expect(await exists(photo)).toBe(true);

    expect((await user.request(`/api/horses/${id}`, { method: 'DELETE' })).status).toBe(204);
    await sweepPhotos(sql());
    expect(await exists(photo)).toBe(true); // the grace starts now

    await markedLongAgo(photo);
    const swept = await sweepPhotos(sql());
    expect(swept).toMatchObject({ deleted: [idOf(photo)] });
    expect(await exists(photo)).toBe(false);
  });

  it("[I8] the sweeper runs by itself on its timer, and a removed photo frees its owner's quota", async () => {
    const user = await signInAs(ranch.server.url, admin, 'Staff');
    const photo = await stored(user, jpeg(90 * KB));
    const full = await uploadURL(user);
    expect((await put(user, full.uploadURL, jpeg(20 * KB))).status).toBe(413);

    const sweeper = startPhotoSweeper(sql(), 50, 0);
    try {
      await expect.poll(() => exists(photo), { timeout: 10_000 }).toBe(false);
    } finally {
      await sweeper.stop();
    }
    expect((await put(user, full.uploadURL, jpeg(20 * KB))).status).toBe(200);
  });
});

describe.each(databaseKinds().filter((kind) => kind === 'postgres'))('photo clean-up on several instances (%s)', (kind) => {
  let ranch: StaffRanch;
  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
  });
  afterAll(() => ranch.server.destroy());

  it('[I8] one instance sweeps at a time: a sweep while another holds the sweep lock does nothing', async () => {
    const photo = await stored(ranch.staff, jpeg(10 * KB));
    const { sql } = ranch.server.db;
    await sql`update objects set unreferenced_since = now() - interval '8 days' where id = ${photo.split('/').pop() as string}`;
    const other = await sql.reserve();
    try {
      await other`select pg_advisory_lock(7261004)`;
      expect(await sweepPhotos(sql)).toEqual({ skipped: true });
      expect((await sql`select 1 from objects where id = ${photo.split('/').pop() as string}`).length).toBe(1);
      await other`select pg_advisory_unlock(7261004)`;
    } finally {
      other.release();
    }
    expect(await sweepPhotos(sql)).toMatchObject({ skipped: false, deleted: [photo.split('/').pop()] });
  });
});
