import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { MAX_PHOTO_BYTES } from '../../shared/index.ts';

/** A real 1×1 PNG. */
const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const GIF = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;');
const WEBP = new TextEncoder().encode('RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00\x10');
/** The ftyp box an iPhone's HEIC photo starts with. */
const HEIC = Uint8Array.from([0, 0, 0, 0x18, ...new TextEncoder().encode('ftypheic'), 0, 0, 0, 0, ...new TextEncoder().encode('mif1heic')]);

describe.each(databaseKinds())('photos (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let staff: ApiClient;
  let otherStaff: ApiClient;
  let viewer: ApiClient;

  async function uploadURL(as: ApiClient = staff): Promise<{ uploadURL: string; objectPath: string }> {
    const response = await as.request('/api/objects/upload', { method: 'POST' });
    expect(response.status).toBe(200);
    return response.json();
  }

  function put(as: ApiClient, url: string, body: BodyInit, contentType = 'image/png'): Promise<Response> {
    return as.request(url, { method: 'PUT', body, headers: { 'content-type': contentType } });
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    staff = await signInAs(server.url, admin, 'Staff');
    otherStaff = await signInAs(server.url, admin, 'Staff');
    viewer = await signInAs(server.url, admin, 'Viewer');
  });
  afterAll(() => server.destroy());

  it('[I2] uploads, registers and serves a photo with the bytes that were sent', async () => {
    const upload = await uploadURL();
    expect(upload.uploadURL).toMatch(/^\/api\/objects\/upload\/[a-z2-7]{32}$/);
    expect(upload.objectPath).toMatch(/^\/api\/objects\/[0-9a-f-]{36}$/);

    const stored = await put(staff, upload.uploadURL, PNG, 'application/octet-stream');
    expect(stored.status).toBe(200);
    expect(await stored.json()).toEqual({ objectPath: upload.objectPath });

    const registered = await staff.request('/api/horse-photos', { method: 'PUT', json: { photoURL: upload.uploadURL } });
    expect(registered.status).toBe(200);
    expect(await registered.json()).toEqual({ objectPath: upload.objectPath });

    // Any signed-in user sees it, Viewer included.
    const served = await viewer.request(upload.objectPath);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = served.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);

    const revalidated = await staff.request(upload.objectPath, { headers: { 'if-none-match': etag ?? '' } });
    expect(revalidated.status).toBe(304);
  });

  it('[I5] accepts the photo formats phones and browsers produce, typed by their bytes', async () => {
    const cases: [Uint8Array<ArrayBuffer>, string][] = [
      [JPEG, 'image/jpeg'],
      [GIF, 'image/gif'],
      [WEBP, 'image/webp'],
      [HEIC, 'image/heic'],
    ];
    for (const [bytes, type] of cases) {
      const upload = await uploadURL();
      // The label the client sends does not matter; the bytes decide.
      const stored = await put(staff, upload.uploadURL, bytes, 'image/png');
      expect(stored.status).toBe(200);
      const served = await staff.request(upload.objectPath);
      expect(served.headers.get('content-type')).toBe(type);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    }
  });

  it('[I2] registers by absolute upload URL or by object path, and again with the same answer', async () => {
    const upload = await uploadURL();
    await put(staff, upload.uploadURL, PNG);
    for (const photoURL of [server.url + upload.uploadURL, upload.uploadURL, upload.objectPath, server.url + upload.objectPath]) {
      const registered = await staff.request('/api/horse-photos', { method: 'PUT', json: { photoURL } });
      expect(registered.status).toBe(200);
      expect(await registered.json()).toEqual({ objectPath: upload.objectPath });
    }
  });

  it('[I5] answers a retried PUT of the same bytes with the same object, and refuses other bytes', async () => {
    const upload = await uploadURL();
    const first = await put(staff, upload.uploadURL, PNG);
    const retry = await put(staff, upload.uploadURL, PNG);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(await first.json());
    const count = await server.db.sql`select count(*)::int as n from objects where id = ${upload.objectPath.split('/').pop() ?? ''}`;
    expect(count[0]?.n).toBe(1);

    const other = await put(staff, upload.uploadURL, JPEG);
    expect(other.status).toBe(410);
    expect((await other.json()).message).toMatch(/already been used/);
    expect(new Uint8Array(await (await staff.request(upload.objectPath)).arrayBuffer())).toEqual(PNG);
  });

  it('[I5] makes one object of two PUTs racing to one URL', async () => {
    const upload = await uploadURL();
    const answers = await Promise.all([put(staff, upload.uploadURL, PNG), put(staff, upload.uploadURL, PNG)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const rows = await server.db.sql`select count(*)::int as n from objects where id = ${upload.objectPath.split('/').pop() ?? ''}`;
    expect(rows[0]?.n).toBe(1);
  });

  it('[A1] needs a session for every photo call (401)', async () => {
    const upload = await uploadURL();
    await put(staff, upload.uploadURL, PNG);
    const anonymous = client(server.url, '');
    for (const [path, init] of [
      ['/api/objects/upload', { method: 'POST' }],
      [upload.uploadURL, { method: 'PUT', body: PNG }],
      ['/api/horse-photos', { method: 'PUT', json: { photoURL: upload.uploadURL } }],
      [upload.objectPath, {}],
    ] as const) {
      const response = await anonymous.request(path, init);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('[A12] refuses a photo call that names another user than the session’s (401), so no one sends another’s photos', async () => {
    const self = (await (await staff.request('/api/auth/user')).json()) as { id: string };
    const other = (await (await otherStaff.request('/api/auth/user')).json()) as { id: string };
    const named = (userId: string) => ({ headers: { 'x-ranch-user': userId } });
    const refused = await staff.request('/api/objects/upload', { method: 'POST', ...named(other.id) });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ message: 'Unauthorized: signed in as another user' });
    const upload = await uploadURL();
    const put = await staff.request(upload.uploadURL, {
      method: 'PUT',
      body: PNG,
      headers: { 'content-type': 'image/png', 'x-ranch-user': other.id },
    });
    expect(put.status).toBe(401);
    expect((await staff.request('/api/objects/upload', { method: 'POST', ...named(self.id) })).status).toBe(200);
  });

  it('[I2] [A10] mints an upload URL for a POST of this origin, and for no other site', async () => {
    expect((await staff.request('/api/objects/upload', { method: 'POST', headers: { origin: server.url } })).status).toBe(200);
    const foreign: RequestInit[] = [
      { method: 'POST', headers: { origin: 'http://evil.test' } },
      { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } },
      // The GET that apps installed before the POST still send: never for another site.
      { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' } },
      { headers: { 'sec-fetch-site': 'same-site' } },
    ];
    for (const init of foreign) expect((await staff.request('/api/objects/upload', init)).status).toBe(403);
    expect((await staff.request('/api/objects/upload', { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
  });

  it('[R1] lets a Viewer see photos but not upload or register them (403)', async () => {
    expect((await viewer.request('/api/objects/upload', { method: 'POST' })).status).toBe(403);
    const upload = await uploadURL();
    expect((await put(viewer, upload.uploadURL, PNG)).status).toBe(403);
    expect((await viewer.request('/api/horse-photos', { method: 'PUT', json: { photoURL: upload.uploadURL } })).status).toBe(403);
  });

  it("[I5] binds an upload URL to the user who asked for it (403) and keeps other users' uploads out of their registration", async () => {
    const upload = await uploadURL();
    const foreign = await put(otherStaff, upload.uploadURL, PNG);
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).message).toMatch(/another user/);
    await put(staff, upload.uploadURL, PNG);
    const registered = await otherStaff.request('/api/horse-photos', { method: 'PUT', json: { photoURL: upload.uploadURL } });
    expect(registered.status).toBe(400);
  });

  it('[X2] answers 404 for unknown upload URLs and photos', async () => {
    const unknownToken = await put(staff, '/api/objects/upload/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', PNG);
    expect(unknownToken.status).toBe(404);
    expect(await unknownToken.json()).toEqual({ message: 'No such upload URL.' });
    expect((await put(staff, '/api/objects/upload/not-a-token', PNG)).status).toBe(404);
    for (const path of ['/api/objects/0190f0a0-0000-7000-8000-000000000000', '/api/objects/not-a-uuid', '/api/objects/%27%3B']) {
      const response = await staff.request(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: 'No such photo.' });
    }
    // Handed out but not uploaded yet: not served.
    expect((await staff.request((await uploadURL()).objectPath)).status).toBe(404);
  });

  it('[I5] answers 410 for an expired upload URL', async () => {
    const upload = await uploadURL();
    await server.db.sql`update upload_tokens set expires_at = now() - interval '1 second' where used_at is null`;
    const response = await put(staff, upload.uploadURL, PNG);
    expect(response.status).toBe(410);
    expect((await response.json()).message).toMatch(/expired/);
  });

  it('[I5] still answers a retry of an upload whose URL expired after it was used', async () => {
    const upload = await uploadURL();
    expect((await put(staff, upload.uploadURL, PNG)).status).toBe(200);
    await server.db.sql`update upload_tokens set expires_at = now() - interval '1 hour'`;
    const retry = await put(staff, upload.uploadURL, PNG);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ objectPath: upload.objectPath });
    const registered = await staff.request('/api/horse-photos', { method: 'PUT', json: { photoURL: upload.uploadURL } });
    expect(await registered.json()).toEqual({ objectPath: upload.objectPath });
  });

  it('[I1] [I5] refuses a photo one byte over 10485760 bytes (413), declared or streamed', async () => {
    const tooBig = new Uint8Array(MAX_PHOTO_BYTES + 1);
    tooBig.set(PNG);
    const upload = await uploadURL();
    const declared = await put(staff, upload.uploadURL, tooBig);
    expect(declared.status).toBe(413);
    expect((await declared.json()).message).toMatch(/larger than 10485760 bytes/);

    // Chunked, without a Content-Length: counted while it streams.
    const chunk = new Uint8Array(1024 * 1024);
    chunk.set(PNG);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_PHOTO_BYTES) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const streamed = await staff.request(upload.uploadURL, { method: 'PUT', body: stream, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);

    // The URL is still good for a photo of the right size; exactly the limit is allowed.
    const atLimit = new Uint8Array(MAX_PHOTO_BYTES);
    atLimit.set(PNG);
    expect((await put(staff, upload.uploadURL, atLimit)).status).toBe(200);
  });

  it('[I5] refuses what is not an image, whatever its label says (415), and empty bodies (400)', async () => {
    const upload = await uploadURL();
    for (const body of [
      new TextEncoder().encode('hello, I am a text file'),
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Uint8Array.from([0x25, 0x50, 0x44, 0x46]),
    ]) {
      const response = await put(staff, upload.uploadURL, body, 'image/png');
      expect(response.status).toBe(415);
      expect((await response.json()).message).toBe('Only JPEG, PNG, WebP, GIF or HEIC/HEIF images can be uploaded.');
    }
    const empty = await put(staff, upload.uploadURL, new Uint8Array(0));
    expect(empty.status).toBe(400);
    // Refusals do not use up the URL.
    expect((await put(staff, upload.uploadURL, PNG)).status).toBe(200);
  });

  it('[I5] refuses to register anything but one of our uploads (400 with a message)', async () => {
    const pending = await uploadURL();
    const cases: [unknown, RegExp][] = [
      [{ photoURL: 'https://evil.example/api/objects/upload/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }, /upload URL or photo path of this server/],
      [{ photoURL: `//evil.example${pending.uploadURL}` }, /of this server/],
      [{ photoURL: 'javascript:alert(1)' }, /of this server/],
      [{ photoURL: 'http://[broken' }, /of this server/],
      [{ photoURL: '/api/horses' }, /of this server/],
      [{ photoURL: '/api/objects/upload/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }, /no such upload/],
      [{ photoURL: '/api/objects/0190f0a0-0000-7000-8000-000000000000' }, /no such upload/],
      [{ photoURL: pending.uploadURL }, /nothing has been uploaded/],
      [{ photoURL: pending.objectPath }, /no such upload/],
      [{ photoURL: '' }, /photoURL is required/],
      [{}, /photoURL is required/],
      [{ photoURL: 42 }, /photoURL is required/],
      [{ photoURL: 'x'.repeat(5000) }, /at most 2048/],
    ];
    for (const [json, message] of cases) {
      const response = await staff.request('/api/horse-photos', { method: 'PUT', json });
      expect(response.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect((await response.json()).message).toMatch(message);
    }
    const malformed = await staff.request('/api/horse-photos', {
      method: 'PUT',
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ message: 'Malformed JSON in request body' });
  });
});
