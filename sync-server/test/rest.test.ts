import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { LOOKUP_KINDS } from '../../shared/index.ts';

describe.each(databaseKinds())('horses and lookup lists over REST (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;
  const ids: Record<string, string> = {};

  async function createLookup(kindName: string, name: string): Promise<string> {
    const response = await staff.request(`/api/${kindName}`, { method: 'POST', json: { name, isActive: true } });
    expect(response.status).toBe(201);
    return (await response.json()).id;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    staff = await signInAs(server.url, admin, 'Staff');
    ids.quarter = await createLookup('breeds', 'Quarter Horse');
    ids.arabian = await createLookup('breeds', 'Arabian');
    ids.bay = await createLookup('colors', 'Bay');
    ids.mare = await createLookup('genders', 'Mare');
    ids.available = await createLookup('statuses', 'Available');
  });
  afterAll(() => server.destroy());

  it('[L4] creates lookup items active and lists them by name', async () => {
    for (const kindName of LOOKUP_KINDS) {
      const list = await (await staff.request(`/api/${kindName}`)).json();
      expect(list.length).toBeGreaterThan(0);
      for (const item of list) expect(item).toMatchObject({ isActive: true });
    }
    const breeds = await (await staff.request('/api/breeds')).json();
    expect(breeds.map((b: { name: string }) => b.name)).toEqual(['Arabian', 'Quarter Horse']);
  });

  it('[L3] refuses blank lookup names', async () => {
    for (const name of ['', '   ']) {
      const response = await staff.request('/api/colors', { method: 'POST', json: { name } });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ message: 'name: Name is required' });
    }
  });

  it('[X5] creates a horse that is listed and projected into Postgres', async () => {
    const response = await staff.request('/api/horses', {
      method: 'POST',
      json: {
        name: '  Midnight Star ',
        breedId: ids.quarter,
        colorId: ids.bay,
        genderId: ids.mare,
        statusId: ids.available,
        ownerId: null,
        birthdate: '2019-04-02T00:00:00.000Z',
        ageYears: 6,
        priceUsd: '12500.5',
        photoUrl: null,
        notes: 'Calm on trails',
      },
    });
    expect(response.status).toBe(201);
    const horse = await response.json();
    expect(horse).toMatchObject({ name: 'Midnight Star', priceUsd: '12500.50', birthdate: '2019-04-02', ageYears: 6 });

    const list = await (await staff.request('/api/horses')).json();
    expect(list).toContainEqual({ ...horse });
    const [row] = await server.db.sql`select name, price_usd::text as price from horses where id = ${horse.id}`;
    expect(row).toEqual({ name: 'Midnight Star', price: '12500.50' });
    const [logged] = await server.db.sql`select count(*)::int as n from doc_updates where doc = 'ranch'`;
    expect(logged?.n).toBeGreaterThanOrEqual(6);
  });

  it('[H2] [X1] filters the list; an empty filter means all', async () => {
    await staff.request('/api/horses', {
      method: 'POST',
      json: { name: 'Desert Wind', breedId: ids.arabian, colorId: ids.bay, genderId: ids.mare },
    });
    const names = async (query: string) =>
      ((await (await staff.request(`/api/horses?${query}`)).json()) as { name: string }[]).map((h) => h.name);
    expect(await names('search=MIDNIGHT')).toEqual(['Midnight Star']);
    expect(await names(`breedId=${ids.arabian}`)).toEqual(['Desert Wind']);
    expect(await names(`statusId=${ids.available}`)).toEqual(['Midnight Star']);
    expect(await names('search=&statusId=&breedId=')).toEqual(['Desert Wind', 'Midnight Star']);
    expect(await names('search=%25')).toEqual([]);
    const bad = await staff.request('/api/horses?breedId=not-a-uuid');
    expect(bad.status).toBe(400);
  });

  it('[H5] [X2] answers invalid horses with 400 and the message, never 500', async () => {
    const cases: [unknown, string][] = [
      [{ breedId: ids.quarter, colorId: ids.bay, genderId: ids.mare }, 'Name is required'],
      [{ name: 'A', colorId: ids.bay, genderId: ids.mare }, 'Breed is required'],
      [{ name: 'A', breedId: ids.quarter, genderId: ids.mare }, 'Color is required'],
      [{ name: 'A', breedId: ids.quarter, colorId: ids.bay, genderId: '' }, 'Gender is required'],
      [{ name: 'A', breedId: ids.quarter, colorId: ids.bay, genderId: ids.mare, priceUsd: 'lots' }, 'Must be an amount in dollars'],
      [{ name: 'A', breedId: ids.quarter, colorId: ids.bay, genderId: ids.mare, ageYears: 2.5 }, 'Age must be a whole number'],
      [{ name: 'A', breedId: ids.quarter, colorId: ids.bay, genderId: ids.mare, birthdate: '2020-02-30' }, 'Must be a date'],
      [{ name: 'x'.repeat(10_000), breedId: ids.quarter, colorId: ids.bay, genderId: ids.mare }, 'at most 120'],
    ];
    for (const [body, message] of cases) {
      const response = await staff.request('/api/horses', { method: 'POST', json: body });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toContain(message);
    }
  });

  it('[H5] refuses references to lookup items that do not exist', async () => {
    const response = await staff.request('/api/horses', {
      method: 'POST',
      json: { name: 'Ghost', breedId: '0190a0a0-0000-7000-8000-000000000000', colorId: ids.bay, genderId: ids.mare },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('breedId: no such breed');
    const list = await (await staff.request('/api/horses?search=ghost')).json();
    expect(list).toEqual([]);
  });

  it('[X2] answers malformed bodies with 400', async () => {
    const malformed = await staff.request('/api/horses', {
      method: 'POST',
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const array = await staff.request('/api/breeds', { method: 'POST', json: [1, 2] });
    expect(array.status).toBe(400);
  });

  it('revalidates the horse list by ETag until something changes', async () => {
    const first = await staff.request('/api/horses');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    const again = await staff.request('/api/horses', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    await staff.request('/api/horses', {
      method: 'POST',
      json: { name: 'Cache Buster', breedId: ids.quarter, colorId: ids.bay, genderId: ids.mare },
    });
    const changed = await staff.request('/api/horses', { headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as { name: string }[]).map((h) => h.name)).toContain('Cache Buster');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('[X2] answers unknown API paths with a JSON 404', async () => {
    const response = await staff.request('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Not Found' });
  });

  it('[R1] lets a Viewer list horses but not add them', async () => {
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    const viewer = await signInAs(server.url, admin, 'Viewer');
    expect((await viewer.request('/api/horses')).status).toBe(200);
    const response = await viewer.request('/api/horses', {
      method: 'POST',
      json: { name: 'Nope', breedId: ids.quarter, colorId: ids.bay, genderId: ids.mare },
    });
    expect(response.status).toBe(403);
  });
});
