import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createdId, signIn, signInAs, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, type TestServer } from './support/server.ts';
import { startStaffRanch } from './support/staff-ranch.ts';
import { connectDevice, whenSynced, type Device } from './support/sync-client.ts';
import { collectionMap, getEntity, newId, writeEntity } from '../../shared/index.ts';

describe.each(databaseKinds())('[K1]–[K6] care entries over REST and on the socket (%s)', (kind) => {
  let server: TestServer;
  let staff: ApiClient;
  let viewer: ApiClient;
  const horses: string[] = [];
  const devices: Device[] = [];
  let lookups: { breed: string; color: string; gender: string };

  const horse = (name: string) =>
    createdId(staff, '/api/horses', { name, breedId: lookups.breed, colorId: lookups.color, genderId: lookups.gender });
  const entries = async (query = '') => (await staff.request(`/api/careEntries${query}`)).json();

  beforeAll(async () => {
    ({ server, staff, lookups } = await startStaffRanch(kind));
    viewer = await signInAs(server.url, await signIn(server.url, ADMIN.email, ADMIN.password), 'Viewer');
    for (const name of ['Dusty', 'Star', 'Goliath']) horses.push(await horse(name));
  });
  afterEach(() => devices.splice(0).forEach((device) => device.destroy()));
  afterAll(() => server.destroy());

  it('[K2] a farrier visit for three horses makes an entry per horse, recorded by the Staff member; Viewers read', async () => {
    const response = await staff.request('/api/careEntries', {
      method: 'POST',
      json: { horseIds: horses, kind: 'farrier', doneOn: '2026-06-01', nextDueOn: '2026-07-27', notes: 'Front shoes' },
    });
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created).toHaveLength(3);
    expect(created[0]).toMatchObject({ horseId: horses[0], kind: 'farrier', recordedByName: 'Staff Tester', nextDueOn: '2026-07-27' });
    const stored = await (await viewer.request(`/api/careEntries?horseId=${horses[1]}`)).json();
    expect(stored).toEqual([created[1]]);
  });

  it('[K5] a Viewer may not write (403); bad input is a 400 with its message; unknown ids 404', async () => {
    const visit = { horseIds: [horses[0]], kind: 'coggins', doneOn: '2026-06-01' };
    expect((await viewer.request('/api/careEntries', { method: 'POST', json: visit })).status).toBe(403);
    const bad = await staff.request('/api/careEntries', { method: 'POST', json: { ...visit, nextDueOn: '2026-01-01' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('nextDueOn: Next due date cannot be before the date done');
    const unknownKind = await staff.request('/api/careEntries', { method: 'POST', json: { ...visit, kind: 'shoeing' } });
    expect(unknownKind.status).toBe(400);
    const noHorse = await staff.request('/api/careEntries', { method: 'POST', json: { ...visit, horseIds: [newId()] } });
    expect(noHorse.status).toBe(400);
    expect((await noHorse.json()).message).toBe('horseId: no such horse');
    expect((await staff.request('/api/careEntries?horseId=nope')).status).toBe(400);
    expect((await staff.request(`/api/careEntries/${newId()}`, { method: 'DELETE' })).status).toBe(404);
    expect((await staff.request('/api/careEntries/not-an-id', { method: 'DELETE' })).status).toBe(400);
  });

  it('[K3] [K4] an entry is corrected or deleted; what is due follows the latest entry per horse and kind', async () => {
    const [old] = await (
      await staff.request('/api/careEntries', {
        method: 'POST',
        json: { horseIds: [horses[2]], kind: 'coggins', doneOn: '2025-05-01', nextDueOn: '2026-05-01' },
      })
    ).json();
    const due = async () => (await viewer.request('/api/careEntries/due?today=2026-06-15')).json();
    expect(await due()).toContainEqual({ horseId: horses[2], kind: 'coggins', dueOn: '2026-05-01', overdue: true });
    const viewerEdit = await viewer.request(`/api/careEntries/${old.id}`, { method: 'PUT', json: { ...old, notes: 'x' } });
    expect(viewerEdit.status).toBe(403);
    const edited = await staff.request(`/api/careEntries/${old.id}`, {
      method: 'PUT',
      json: { horseId: horses[2], kind: 'coggins', doneOn: '2025-05-01', nextDueOn: '2026-05-01', notes: 'Negative' },
    });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ notes: 'Negative', recordedByName: 'Staff Tester', createdAt: old.createdAt });
    await staff.request('/api/careEntries', {
      method: 'POST',
      json: { horseIds: [horses[2]], kind: 'coggins', doneOn: '2026-06-15', nextDueOn: '2027-06-15' },
    });
    expect((await due()).filter((item: { horseId: string }) => item.horseId === horses[2])).toEqual([]);
    expect((await staff.request(`/api/careEntries/${old.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('[K6] deleting a horse deletes its care entries with it (no 409)', async () => {
    const gone = await horse('Leaving');
    await staff.request('/api/careEntries', { method: 'POST', json: { horseIds: [gone], kind: 'dental', doneOn: '2026-06-01' } });
    expect(await entries(`?horseId=${gone}`)).toHaveLength(1);
    expect((await staff.request(`/api/horses/${gone}`, { method: 'DELETE' })).status).toBe(204);
    expect(await entries(`?horseId=${gone}`)).toEqual([]);
  });

  it('[K5] [Y6] a hostile care entry on the socket is put right: a bad field written back, a dangling one removed', async () => {
    const device = connectDevice(server.url, staff.cookie);
    devices.push(device);
    await whenSynced(device);
    const [entry] = await entries(`?horseId=${horses[0]}`);
    const stranger = newId();
    device.doc.transact(() => {
      const map = collectionMap(device.doc, 'careEntries').get(entry.id)!;
      map.set('nextDueOn', 'soon');
      writeEntity(device.doc, 'careEntries', stranger, { ...entry, id: stranger, horseId: newId() });
    });
    await expect.poll(() => getEntity(device.doc, 'careEntries', entry.id)).toEqual(entry);
    await expect.poll(() => collectionMap(device.doc, 'careEntries').has(stranger)).toBe(false);
    expect(await entries(`?horseId=${horses[0]}`)).toEqual([entry]);
  });

  it('[K1] [K3] on the socket, who recorded an entry and when stay; notes and the date done may be corrected, as over REST', async () => {
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    const adminId = ((await (await admin.request('/api/auth/user')).json()) as { id: string }).id;
    const recorded = await admin.request('/api/careEntries', {
      method: 'POST',
      json: { horseIds: [horses[1]], kind: 'coggins', doneOn: '2026-05-02', notes: 'negative' },
    });
    const [entry] = (await recorded.json()) as { id: string; recordedBy: string; recordedByName: string; createdAt: string }[];
    // The bootstrap Admin has no names: they are named by their role, never by their e-mail.
    expect(entry).toMatchObject({ recordedBy: adminId, recordedByName: 'Admin' });
    const device = connectDevice(server.url, staff.cookie);
    devices.push(device);
    await whenSynced(device);
    await expect.poll(() => collectionMap(device.doc, 'careEntries').has(entry!.id)).toBe(true);
    const viewerId = ((await (await viewer.request('/api/auth/user')).json()) as { id: string }).id;
    device.doc.transact(() => {
      const map = collectionMap(device.doc, 'careEntries').get(entry!.id)!;
      map.set('recordedBy', viewerId);
      map.set('recordedByName', 'viewer X');
      map.set('createdAt', '2020-01-01T00:00:00.000Z');
      map.set('notes', 'POSITIVE');
      map.set('doneOn', '2026-01-01');
    });
    await expect
      .poll(() => getEntity(device.doc, 'careEntries', entry!.id))
      .toMatchObject({
        recordedBy: adminId,
        recordedByName: 'Admin',
        createdAt: entry!.createdAt,
        notes: 'POSITIVE',
        doneOn: '2026-01-01',
      });
    await expect
      .poll(async () => ((await entries(`?horseId=${horses[1]}`)) as { id: string }[]).find((row) => row.id === entry!.id))
      .toMatchObject({ recordedBy: adminId, recordedByName: 'Admin', createdAt: entry!.createdAt, notes: 'POSITIVE' });
  });

  it('[K1] an entry a device creates names its sender, by their name in the user table, whatever the device says', async () => {
    const staffId = ((await (await staff.request('/api/auth/user')).json()) as { id: string }).id;
    const viewerId = ((await (await viewer.request('/api/auth/user')).json()) as { id: string }).id;
    const device = connectDevice(server.url, staff.cookie);
    devices.push(device);
    await whenSynced(device);
    const [forged, honest] = [newId(), newId()];
    const fields = {
      horseId: horses[2]!,
      kind: 'deworming',
      doneOn: '2026-06-01',
      nextDueOn: null,
      notes: null,
      createdAt: new Date().toISOString(),
    };
    device.doc.transact(() => {
      writeEntity(device.doc, 'careEntries', forged, { ...fields, recordedBy: viewerId, recordedByName: 'Someone Else' });
      writeEntity(device.doc, 'careEntries', honest, { ...fields, recordedBy: staffId, recordedByName: 'Staff Tester' });
    });
    await expect
      .poll(() => getEntity(device.doc, 'careEntries', forged))
      .toMatchObject({ recordedBy: staffId, recordedByName: 'Staff Tester' });
    const created = async () =>
      ((await entries(`?horseId=${horses[2]}`)) as { id: string }[]).filter((row) => [forged, honest].includes(row.id));
    await expect.poll(async () => (await created()).length).toBe(2);
    for (const row of await created()) expect(row).toMatchObject({ recordedBy: staffId, recordedByName: 'Staff Tester' });
  });
});
