import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { client, createdId, signIn, type ApiClient } from './support/client.ts';
import { cleanupsAfterEach } from './support/cleanups.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, type TestServer } from './support/server.ts';
import { startStaffRanch } from './support/staff-ranch.ts';
import { connectAckedDevice, whenSynced } from './support/sync-client.ts';
import { untilSaved } from './support/until-saved.ts';
import {
  collectionMap,
  getEntity,
  writeEntity,
  type Conflict,
  type ConflictList,
  type EntityFields,
  type HistoryChange,
  type HistoryPage,
} from '../../shared/index.ts';

type AckedDevice = ReturnType<typeof connectAckedDevice>;

describe.each(databaseKinds())('[T6] conflicts (%s)', (kind) => {
  const { track } = cleanupsAfterEach();
  let server: TestServer;
  let staff: ApiClient;
  let admin: ApiClient;
  let lookups: { breed: string; color: string; gender: string };
  /** Client ids no other device of this run uses: a pair per test, the lower first. */
  let nextClient = 100_000 + Math.floor(Math.random() * 1_000_000) * 4;

  const horseBody = (fields: Record<string, unknown> = {}) => ({
    name: 'Dusty',
    breedId: lookups.breed,
    colorId: lookups.color,
    genderId: lookups.gender,
    priceUsd: '8000.00',
    ...fields,
  });

  const conflicts = async (query = ''): Promise<Conflict[]> => {
    const response = await staff.request(`/api/conflicts${query}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as ConflictList).conflicts;
  };
  const history = async (id: string): Promise<HistoryChange[]> => {
    const response = await staff.request(`/api/history/horses/${id}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as HistoryPage).changes;
  };
  /** The horse as the projection holds it (what REST reads). */
  const stored = async (id: string) =>
    ({ ...(await server.db.sql`select price_usd::text as "priceUsd", notes from horses where id = ${id}`)[0] }) as Record<string, unknown>;
  const closing = async (id: string) =>
    (
      await server.db.sql<{ how: string; by: string }[]>`
      select closed_how as how, closed_by::text as by from conflicts where entity_id = ${id} and closed_seq is not null order by id`
    ).map((row) => ({ ...row }));

  /** A device of `as` holding the horse, with the given client id. */
  const deviceOf = async (as: ApiClient, id: string, clientId?: number): Promise<AckedDevice> => {
    const device = track(connectAckedDevice(server.url, as.cookie, clientId));
    await whenSynced(device);
    await expect.poll(() => collectionMap(device.doc, 'horses').has(id)).toBe(true);
    return device;
  };
  const write = (device: AckedDevice, id: string, fields: EntityFields) =>
    device.doc.transact(() => writeEntity(device.doc, 'horses', id, fields));
  /** Sets a field even to the value it has (a device saying "keep this one"). */
  const setAgain = (device: AckedDevice, id: string, field: string, value: string) =>
    device.doc.transact(() => collectionMap(device.doc, 'horses').get(id)?.set(field, value));

  /**
   * Staff's and the admin's devices, both apart, each write the horse; staff's reaches the
   * server first, then the admin's. `adminWins`: the admin's client id is the higher, so the
   * merge keeps the admin's value (the incoming write wins); else it keeps staff's (the
   * server's value wins and the admin's write is dropped).
   */
  const apart = async (id: string, staffFields: EntityFields, adminFields: EntityFields, adminWins: boolean) => {
    const low = nextClient;
    nextClient += 4;
    const first = await deviceOf(staff, id, adminWins ? low : low + 1);
    const second = await deviceOf(admin, id, adminWins ? low + 1 : low);
    first.provider.disconnect();
    second.provider.disconnect();
    write(first, id, staffFields);
    write(second, id, adminFields);
    first.provider.connect();
    await untilSaved(first);
    second.provider.connect();
    await untilSaved(second);
    return { first, second };
  };

  beforeAll(async () => {
    // Compacts after every 3 logged updates, so the tests run across compactions.
    ({ server, staff, lookups } = await startStaffRanch(kind, { compactEvery: 3 }));
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(() => server.destroy());

  it('two people change a price while apart and the later one wins: one open conflict with both values and names, money', async () => {
    const id = await createdId(staff, '/api/horses', horseBody());
    await apart(id, { priceUsd: '9000.00' }, { priceUsd: '9500.00' }, true);

    const [conflict, ...more] = await conflicts(`?collection=horses&id=${id}`);
    expect(more).toEqual([]);
    expect(conflict).toMatchObject({
      collection: 'horses',
      entityId: id,
      field: 'priceUsd',
      money: true,
      kept: { value: '9500.00', userName: 'Admin' },
      other: { value: '9000.00', userName: 'Staff Tester' },
    });
    expect(Date.now() - Date.parse(conflict?.detectedAt ?? '')).toBeLessThan(60_000);
    expect(Date.parse(conflict?.other.serverTime ?? '')).toBeLessThanOrEqual(Date.parse(conflict?.kept.serverTime ?? ''));
    expect((await stored(id)).priceUsd).toBe('9500.00');

    const prices = (await history(id)).filter((change) => change.field === 'priceUsd');
    expect(prices.map(({ before, after, userName, conflict }) => ({ before, after, userName, conflict }))).toEqual([
      {
        before: '9000.00',
        after: '9500.00',
        userName: 'Admin',
        conflict: {
          id: conflict?.id,
          kept: true,
          otherValue: '9000.00',
          otherUserId: conflict?.other.userId,
          otherUserName: 'Staff Tester',
          open: true,
        },
      },
      {
        before: '8000.00',
        after: '9000.00',
        userName: 'Staff Tester',
        conflict: {
          id: conflict?.id,
          kept: false,
          otherValue: '9500.00',
          otherUserId: conflict?.kept.userId,
          otherUserName: 'Admin',
          open: true,
        },
      },
      { before: null, after: '8000.00', userName: 'Staff Tester', conflict: null },
    ]);
  });

  it('the earlier value wins: the dropped write is still in the history, marked not kept', async () => {
    const id = await createdId(staff, '/api/horses', horseBody({ name: 'Apart' }));
    const { first, second } = await apart(id, { priceUsd: '9000.00' }, { priceUsd: '9500.00' }, false);
    await expect.poll(() => getEntity(second.doc, 'horses', id)?.priceUsd).toBe('9000.00');
    expect(getEntity(first.doc, 'horses', id)?.priceUsd).toBe('9000.00');

    const [conflict] = await conflicts(`?collection=horses&id=${id}`);
    expect(conflict).toMatchObject({
      field: 'priceUsd',
      money: true,
      kept: { value: '9000.00', userName: 'Staff Tester' },
      other: { value: '9500.00', userName: 'Admin' },
    });
    const [lost, earlier] = (await history(id)).filter((change) => change.field === 'priceUsd');
    expect(earlier).toMatchObject({
      after: '9000.00',
      userName: 'Staff Tester',
      conflict: { id: conflict?.id, kept: true, otherValue: '9500.00', otherUserName: 'Admin', open: true },
    });
    expect(lost).toMatchObject({
      kind: 'update',
      before: '9000.00',
      after: '9500.00',
      userName: 'Admin',
      conflict: { id: conflict?.id, kept: false, otherValue: '9000.00', otherUserName: 'Staff Tester', open: true },
    });
    expect((await stored(id)).priceUsd).toBe('9000.00');
  });

  it('a change made having seen the other is no conflict; nor are two changes of different fields', async () => {
    const id = await createdId(staff, '/api/horses', horseBody({ name: 'Calm' }));
    const a = await deviceOf(staff, id);
    const b = await deviceOf(admin, id);
    write(a, id, { priceUsd: '9100.00' });
    await untilSaved(a);
    await expect.poll(() => getEntity(b.doc, 'horses', id)?.priceUsd).toBe('9100.00');
    write(b, id, { priceUsd: '9200.00' });
    await untilSaved(b);
    await apart(id, { priceUsd: '9300.00' }, { notes: 'Lame on the left fore' }, true);
    expect(await stored(id)).toMatchObject({
      priceUsd: '9300.00',
      notes: 'Lame on the left fore',
    });
    expect(await conflicts(`?collection=horses&id=${id}`)).toEqual([]);
    expect((await history(id)).every((change) => change.conflict === null)).toBe(true);
  });

  it('writing the other value back closes it as put back; writing the kept value again closes it as kept', async () => {
    const id = await createdId(staff, '/api/horses', horseBody({ name: 'Back' }));
    const { first } = await apart(id, { priceUsd: '9000.00' }, { priceUsd: '9500.00' }, true);
    expect(await conflicts(`?collection=horses&id=${id}`)).toHaveLength(1);
    await expect.poll(() => getEntity(first.doc, 'horses', id)?.priceUsd).toBe('9500.00');
    write(first, id, { priceUsd: '9000.00' });
    await untilSaved(first);
    expect(await conflicts(`?collection=horses&id=${id}`)).toEqual([]);
    const [staffId] = (await server.db.sql`select id::text from users where first_name = 'Staff'`).map((row) => row.id as string);
    expect(await closing(id)).toEqual([{ how: 'put back', by: staffId }]);
    // The history still says the change met another.
    expect((await history(id)).filter((change) => change.conflict).map((change) => change.conflict)).toMatchObject([
      { kept: true, open: false },
      { kept: false, open: false },
    ]);

    const kept = await createdId(staff, '/api/horses', horseBody({ name: 'Kept' }));
    const again = await apart(kept, { priceUsd: '9000.00' }, { priceUsd: '9500.00' }, true);
    await expect.poll(() => getEntity(again.first.doc, 'horses', kept)?.priceUsd).toBe('9500.00');
    setAgain(again.first, kept, 'priceUsd', '9500.00');
    await untilSaved(again.first);
    expect(await conflicts(`?collection=horses&id=${kept}`)).toEqual([]);
    expect(await closing(kept)).toEqual([{ how: 'kept', by: staffId }]);
  });

  it('a REST edit closes it only when it sets that field; deleting the record closes it', async () => {
    const id = await createdId(staff, '/api/horses', horseBody({ name: 'Rest' }));
    await apart(id, { priceUsd: '9000.00' }, { priceUsd: '9500.00' }, false);
    // A PUT carries every field, the price unchanged: it does not decide the price.
    const put = (fields: Record<string, unknown>) => staff.request(`/api/horses/${id}`, { method: 'PUT', json: horseBody(fields) });
    expect((await put({ name: 'Rest', priceUsd: '9000.00', notes: 'Shod' })).status).toBe(200);
    expect(await conflicts(`?collection=horses&id=${id}`)).toHaveLength(1);
    expect((await put({ name: 'Rest', priceUsd: '9250.00', notes: 'Shod' })).status).toBe(200);
    expect(await conflicts(`?collection=horses&id=${id}`)).toEqual([]);
    expect((await closing(id)).map((row) => row.how)).toEqual(['changed']);

    const gone = await createdId(staff, '/api/horses', horseBody({ name: 'Gone' }));
    await apart(gone, { priceUsd: '9000.00' }, { priceUsd: '9500.00' }, true);
    expect(await conflicts(`?collection=horses&id=${gone}`)).toHaveLength(1);
    expect((await staff.request(`/api/horses/${gone}`, { method: 'DELETE' })).status).toBe(204);
    expect(await conflicts(`?collection=horses&id=${gone}`)).toEqual([]);
    expect((await closing(gone)).map((row) => row.how)).toEqual(['deleted']);
  });

  it('an open conflict and the history survive compaction of the update log and a server restart', async () => {
    const id = await createdId(staff, '/api/horses', horseBody({ name: 'Lasting' }));
    await apart(id, { priceUsd: '9000.00' }, { priceUsd: '9500.00' }, false);
    const before = await conflicts(`?collection=horses&id=${id}`);
    const changes = await history(id);
    expect(before).toHaveLength(1);
    for (const price of ['1', '2', '3', '4']) {
      await staff.request(`/api/horses/${id}`, { method: 'PUT', json: horseBody({ name: 'Lasting', priceUsd: '9000.00', notes: price }) });
    }
    // The log up to the conflict's commit is folded into a snapshot and deleted.
    await expect
      .poll(async () => Number((await server.db.sql`select upto_seq::int as seq from doc_snapshots`)[0]?.seq ?? 0))
      .toBeGreaterThan(Number(changes[0]?.seq));

    server = await server.restart();
    staff = client(server.url, staff.cookie);
    admin = client(server.url, admin.cookie);
    expect(await conflicts(`?collection=horses&id=${id}`)).toEqual(before);
    expect((await history(id)).filter((change) => change.field === 'priceUsd')).toEqual(
      changes.filter((change) => change.field === 'priceUsd'),
    );
    // Still closed by the next write of the field after the restart.
    const device = await deviceOf(admin, id);
    write(device, id, { priceUsd: '9700.00' });
    await untilSaved(device);
    expect(await conflicts(`?collection=horses&id=${id}`)).toEqual([]);
  });

  it('a hostile concurrent write (a nested type, a value no price can be) makes no conflict and no failure', async () => {
    const id = await createdId(staff, '/api/horses', horseBody({ name: 'Hostile' }));
    const low = nextClient;
    nextClient += 4;
    const honest = await deviceOf(staff, id, low + 1);
    const hostile = await deviceOf(admin, id, low);
    const closes: number[] = [];
    hostile.provider.on('connection-close', (event) => event && closes.push(event.code));
    honest.provider.disconnect();
    hostile.provider.disconnect();
    write(honest, id, { priceUsd: '9000.00' });
    hostile.doc.transact(() => {
      const horse = collectionMap(hostile.doc, 'horses').get(id) as unknown as Y.Map<unknown>;
      horse.set('priceUsd', new Y.Map());
      horse.set('notes', 'a lot');
    });
    honest.provider.connect();
    await untilSaved(honest);
    hostile.provider.connect();
    await untilSaved(hostile);
    // The hostile client id is lower: its price lost to the honest one, and is no value at all.
    expect(await conflicts(`?collection=horses&id=${id}`)).toEqual([]);
    // Its client id higher, a value no price can be wins the merge, and is written back: nothing to ask about.
    const winning = await deviceOf(admin, id, low + 3);
    await expect.poll(() => getEntity(honest.doc, 'horses', id)?.notes).toBe('a lot');
    honest.provider.disconnect();
    winning.provider.disconnect();
    write(honest, id, { priceUsd: '9100.00' });
    winning.doc.transact(() => collectionMap(winning.doc, 'horses').get(id)?.set('priceUsd', 'priceless'));
    honest.provider.connect();
    await untilSaved(honest);
    winning.provider.connect();
    await untilSaved(winning);
    await expect.poll(() => getEntity(winning.doc, 'horses', id)?.priceUsd).toBe('9100.00');
    expect(await conflicts(`?collection=horses&id=${id}`)).toEqual([]);
    expect(closes).toEqual([]);
    expect((await staff.request('/api/horses')).status).toBe(200);
    expect(await stored(id)).toEqual({ priceUsd: '9100.00', notes: 'a lot' });
  });

  it('bad parameters are a 400 with a message; Viewers and everyone signed in read the list', async () => {
    const answers = {
      '?collection=mules': 'collection: Must be one of',
      '?collection=horses&id=nope': 'id: Must be a valid id',
      '?id=6a1e3c3e-4d5b-4c7a-9a43-2b1f0d3c9e11': 'collection: Give the collection with the id',
    } as const;
    for (const [query, message] of Object.entries(answers)) {
      const response = await staff.request(`/api/conflicts${query}`);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toContain(message);
    }
    const all = await conflicts();
    expect(all.map((conflict) => Number(conflict.id))).toEqual(all.map((conflict) => Number(conflict.id)).sort((a, b) => a - b));
    expect(all.length).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/api/conflicts`)).status).toBe(401);
  });
});
