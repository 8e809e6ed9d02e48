import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepPhotos } from '../src/storage/photo-sweep.ts';
import { signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';

/** A real 1×1 PNG. */
const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
);

const DETAILS = {
  name: 'Willow Creek Ranch',
  address: '1200 County Road 7\nLaramie, WY 82070',
  phone: '(307) 555-0142',
  email: 'office@willowcreek.test',
  logoUrl: null,
};

describe.each(databaseKinds())('[L9] ranch details over REST (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let staff: ApiClient;
  let viewer: ApiClient;
  const put = (as: ApiClient, json: unknown) => as.request('/api/ranch', { method: 'PUT', json });
  const get = async (as: ApiClient) => (await as.request('/api/ranch')).json();

  async function uploadedLogo(as: ApiClient): Promise<string> {
    const upload = await (await as.request('/api/objects/upload', { method: 'POST' })).json();
    const stored = await as.request(upload.uploadURL, { method: 'PUT', body: PNG, headers: { 'content-type': 'image/png' } });
    expect(stored.status).toBe(200);
    return upload.objectPath;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    staff = await signInAs(server.url, admin, 'Staff');
    viewer = await signInAs(server.url, admin, 'Viewer');
  });
  afterAll(() => server.destroy());

  it('[L9] starts empty, an Admin saves every detail, every signed-in role reads them back', async () => {
    expect(await get(viewer)).toEqual({ name: null, address: null, phone: null, email: null, logoUrl: null });
    const logoUrl = await uploadedLogo(admin);
    const saved = await put(admin, {
      ...DETAILS,
      name: '  Willow Creek Ranch ',
      address: '1200 County Road 7\r\nLaramie, WY 82070',
      logoUrl,
    });
    expect(saved.status).toBe(200);
    const expected = { ...DETAILS, logoUrl };
    expect(await saved.json()).toEqual(expected);
    for (const as of [admin, staff, viewer]) expect(await get(as)).toEqual(expected);
    // Emptied optional fields are removed, not kept.
    expect(await (await put(admin, { name: 'Willow Creek', address: '  ', phone: '', email: '', logoUrl: '' })).json()).toEqual({
      name: 'Willow Creek',
      address: null,
      phone: null,
      email: null,
      logoUrl: null,
    });
    expect((await server.db.sql`select name from ranch_settings order by name`).map((row) => row.name)).toEqual(['name']);
  });

  it('[L9] [R1] Staff and Viewers cannot change them (403); signed out is 401', async () => {
    for (const as of [staff, viewer]) {
      const refused = await put(as, { ...DETAILS, name: 'Not Theirs' });
      expect(refused.status).toBe(403);
    }
    expect((await fetch(`${server.url}/api/ranch`)).status).toBe(401);
    expect((await get(viewer)).name).not.toBe('Not Theirs');
  });

  it.each([
    [{ ...DETAILS, name: '  ' }, 'name', 'Ranch name is required'],
    [{ ...DETAILS, phone: 'call us' }, 'phone', 'Invalid phone number'],
    [{ ...DETAILS, email: 'office@' }, 'email', 'Invalid email'],
    [{ ...DETAILS, address: 'a\nb\nc\nd\ne\nf\ng' }, 'address', 'Must be at most 6 lines'],
    [{ ...DETAILS, address: 'x'.repeat(501) }, 'address', 'Must be at most 500 characters'],
    [{ ...DETAILS, address: 'Road\u0000 7' }, 'address', 'Must not contain control characters'],
    [{ ...DETAILS, name: 'Willow\u0000' }, 'name', 'Must not contain control characters'],
    [{ ...DETAILS, logoUrl: 'https://tracker.example/pixel.png' }, 'logoUrl', 'Logo must be a photo uploaded to this ranch'],
    [{ ...DETAILS, logoUrl: 'outbox:0192f3a4-5b6c-7d8e-9f00-112233445566' }, 'logoUrl', 'Logo must be a photo uploaded to this ranch'],
    [
      { ...DETAILS, logoUrl: '/api/objects/0192f3a4-5b6c-7d8e-9f00-112233445566' },
      'logoUrl',
      'Logo must be a photo uploaded to this ranch',
    ],
    [{ ...DETAILS, name: 42 }, 'name', 'Ranch name is required'],
  ])('[L9] refuses bad input with 400 and the message, storing nothing (%#)', async (body, path, message) => {
    await put(admin, DETAILS);
    const refused = await put(admin, body);
    expect(refused.status).toBe(400);
    const answer = await refused.json();
    expect(answer.message).toBe(`${path}: ${message}`);
    expect(answer.issues).toContainEqual({ path, message });
    expect(await get(admin)).toEqual(DETAILS);
  });

  it('[L9] hostile bodies get a 4xx, never a 5xx', async () => {
    for (const body of ['not json', '[]', 'null', '{"name":{"$ne":1}}', JSON.stringify({ name: 'x'.repeat(100_000) })]) {
      const answer = await admin.request('/api/ranch', { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
  });

  it('[L9] [I8] the photo sweep keeps the logo however long no horse shows it', async () => {
    const logoUrl = await uploadedLogo(admin);
    const spare = await uploadedLogo(admin);
    expect((await put(admin, { ...DETAILS, logoUrl })).status).toBe(200);
    const idOf = (path: string) => path.split('/').pop() as string;
    await server.db.sql`update objects set unreferenced_since = now() - interval '8 days' where id in (${idOf(logoUrl)}, ${idOf(spare)})`;
    const outcome = await sweepPhotos(server.db.sql);
    expect(outcome.skipped).toBe(false);
    if (!outcome.skipped) {
      expect(outcome.deleted).toContain(idOf(spare));
      expect(outcome.deleted).not.toContain(idOf(logoUrl));
    }
    expect((await viewer.request(logoUrl)).status).toBe(200);
  });
});
