// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { IndexeddbPersistence } from 'y-indexeddb';
import { collectionMap, writeEntity } from '../../../../shared/index.ts';
import { createRpcClient, type RpcClient } from '../rpc/client.ts';
import type { Endpoint } from '../rpc/wire.ts';
import { hostWrites } from '../outbox/outbox.ts';
import { openRanchDb } from '../db.ts';
import { createDataHost, type DataHost } from './data-host.ts';
import { type HostEvents, onHostEvent, remoteControls, remoteQueries } from './host-api.ts';
import { holdStore } from '../../../test/hold-store.ts';

let counter = 0;
const BREED = '0190a000-0000-7000-8000-0000000000b1';
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The host in this thread and a page's client over a MessageChannel, as over the data worker's port. */
async function openHost(
  loadAtOnce = false,
  rowsOnDevice = false,
  suffix = `${Date.now()}-${++counter}`,
): Promise<{ host: DataHost; client: RpcClient }> {
  if (rowsOnDevice) {
    // A later start: the read model has rows to show before the document loads.
    const db = openRanchDb(`host-read-${suffix}`);
    // nothingToShow (ranch-data.ts) counts horses and sales; the row need not be a whole horse here.
    await db.horses.put({ id: '0190a000-0000-7000-8000-0000000000ab', name: 'Comet' } as never);
    db.close();
  }
  const host = createDataHost({ docDbName: `host-doc-${suffix}`, readDbName: `host-read-${suffix}`, loadAtOnce });
  const channel = new MessageChannel();
  host.rpc.attach(channel.port1 as unknown as Endpoint);
  const client = createRpcClient(channel.port2 as unknown as Endpoint);
  cleanups.push(async () => {
    client.close();
    channel.port1.close();
    channel.port2.close();
    await host.data.persistence.clearData();
    await host.destroy();
  });
  return { host, client };
}

function eventWhere<K extends keyof HostEvents>(
  client: RpcClient,
  name: K,
  test: (payload: HostEvents[K]) => boolean,
): Promise<HostEvents[K]> {
  return new Promise((resolve) => {
    const stop = onHostEvent(client, name, (payload) => {
      if (!test(payload)) return;
      stop();
      resolve(payload);
    });
  });
}

describe('the data host (the data worker, run in this thread)', () => {
  it('[O2] loads the document when the page says the first rows are shown, and answers writes into it', async () => {
    const { host, client } = await openHost(false, true);
    const controls = { ...remoteControls(client), ...remoteQueries(client) };
    const writes = hostWrites(host.data.db, controls);
    const loaded = eventWhere(client, 'loaded', (value) => value);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.data.docLoaded).toBe(false);
    await controls.startLoading();
    expect(await loaded).toBe(true);
    await controls.idle();
    const breedId = await writes.lookups.create('breeds', { name: 'Arabian' });
    await expect.poll(() => host.data.db.breeds.get(breedId)).toEqual({ id: breedId, name: 'Arabian', isActive: true });
    await expect(writes.lookups.rename('breeds', breedId, { name: ' ' })).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(controls.groupOf('payments', '0190a000-0000-7000-8000-0000000000aa')).resolves.toBeNull();
  });

  it('a tab that connects gets the current state; status and the waiting count follow writes', async () => {
    const { host, client } = await openHost(true);
    const status = await eventWhere(client, 'status', () => true);
    expect(status).toMatchObject({ connection: 'disconnected', saved: true, sessionExpired: false });
    const controls = { ...remoteControls(client), ...remoteQueries(client) };
    await controls.idle();
    const unsaved = eventWhere(client, 'status', (next) => !next.saved);
    const counted = eventWhere(client, 'waiting', (count) => count >= 2);
    const writes = hostWrites(host.data.db, controls);
    await writes.owners.create({ firstName: 'Ann', lastName: 'Lee' });
    await writes.buyers.create({ firstName: 'Bo', lastName: 'Hart' });
    expect((await unsaved).saved).toBe(false);
    expect(await counted).toBe(2);
    expect(await controls.countUnsaved()).toBe(2);
  });

  it('[A12] connect(owner) over the RPC: another user’s unsent changes hold the socket and the photos', async () => {
    const { host, client } = await openHost(true);
    const controls = { ...remoteControls(client), ...remoteQueries(client) };
    await controls.idle();
    expect(await controls.connect({ userId: 'user-ann', name: 'Ann Lee' })).toEqual({ kind: 'syncing' });
    await controls.stopSync();
    expect(host.data.sync).toBeNull();
    await hostWrites(host.data.db, controls).owners.create({ firstName: 'Cy', lastName: 'Ward' });
    expect(await controls.countUnsent()).toEqual({ records: 1, photos: 0 });
    expect(await controls.connect({ userId: 'user-bo', name: 'Bo Hart' })).toEqual({
      kind: 'held',
      owner: { userId: 'user-ann', name: 'Ann Lee' },
      unsent: { records: 1, photos: 0 },
    });
    expect(host.data.sync).toBeNull();
  });

  it('[O2] a write the page does not show itself waits for the load, which it starts; both are stored', async () => {
    // A device with a ranch stored, whose load is held up (as a phone takes seconds to read it).
    const suffix = `early-${Date.now()}-${++counter}`;
    const stored = new Y.Doc();
    const persistence = new IndexeddbPersistence(`host-doc-${suffix}`, stored);
    await persistence.whenSynced;
    const storedHorse = '0190a000-0000-7000-8000-0000000000ab';
    stored.transact(() => writeEntity(stored, 'horses', storedHorse, { name: 'Stored', breedId: BREED, colorId: BREED, genderId: BREED }));
    await persistence.destroy();
    const release = await holdStore(`host-doc-${suffix}`, 'updates');

    const { host, client } = await openHost(false, true, suffix);
    const writes = hostWrites(host.data.db, remoteControls(client));
    let horseId = '';
    const created = writes.horses.create({ name: 'Foal', breedId: BREED, colorId: BREED, genderId: BREED }).then((id) => (horseId = id));
    let editDone = false;
    const edited = writes.horses
      .update(storedHorse, { name: 'Stored, edited', breedId: BREED, colorId: BREED, genderId: BREED })
      .then(() => (editDone = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(editDone).toBe(false);
    expect(host.data.docLoaded).toBe(false);

    expect(horseId).toBe('');
    expect(await host.data.db.outbox.count()).toBe(2);
    release();
    await Promise.all([created, edited]);
    expect(host.data.docLoaded).toBe(true);
    await remoteControls(client).idle();
    expect(await host.data.db.horses.get(storedHorse)).toMatchObject({ name: 'Stored, edited' });
    expect(await host.data.db.horses.get(horseId)).toMatchObject({ name: 'Foal' });

    // Stored on the device: the next start has it.
    await host.destroy();
    const again = createDataHost({ docDbName: `host-doc-${suffix}`, readDbName: `host-read-${suffix}-again`, loadAtOnce: true });
    cleanups.push(() => again.destroy());
    await again.data.loaded;
    expect(collectionMap(again.data.doc, 'horses').get(horseId)?.get('name')).toBe('Foal');
  });

  it('[V7] [A11] once the document is cleared the host answers, then ends (a worker closes, the next tab starts afresh)', async () => {
    counter += 1;
    let ended = false;
    const host = createDataHost({
      docDbName: `host-doc-cleared-${counter}`,
      readDbName: `host-read-cleared-${counter}`,
      loadAtOnce: true,
      onCleared: () => (ended = true),
    });
    const channel = new MessageChannel();
    host.rpc.attach(channel.port1 as unknown as Endpoint);
    const client = createRpcClient(channel.port2 as unknown as Endpoint);
    cleanups.push(async () => {
      client.close();
      channel.port1.close();
      channel.port2.close();
      await host.destroy();
    });
    await remoteControls(client).idle();
    await remoteControls(client).clearDocument();
    expect(ended).toBe(false);
    await vi.waitFor(() => expect(ended).toBe(true));
  });

  it('[O1] opens no socket while either the page or its own thread says offline', async () => {
    const { host, client } = await openHost(true);
    const controls = { ...remoteControls(client), ...remoteQueries(client) };
    await controls.idle();
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    cleanups.push(() => onLine.mockRestore());
    await controls.setOnline(true);
    expect(await controls.connect({ userId: 'user-ann', name: 'Ann Lee' })).toEqual({ kind: 'syncing' });
    expect(host.data.sync?.provider.ws).toBeNull();
    await controls.reconnect();
    expect(host.data.sync?.provider.ws).toBeNull();
    onLine.mockReturnValue(true);
    await controls.setOnline(false);
    await controls.reconnect();
    expect(host.data.sync?.provider.ws).toBeNull();
    await controls.setOnline(true);
    expect(host.data.sync?.provider.ws).not.toBeNull();
  });

  it('[K4] what is due is read in the host: the page gets the short list, not the ranch', async () => {
    const { host, client } = await openHost(true);
    const controls = { ...remoteControls(client), ...remoteQueries(client) };
    // After the load's reconcile, which would take away rows the document does not hold.
    await controls.idle();
    const horseId = '0190a000-0000-7000-8000-0000000000c1';
    await host.data.db.horses.put({ id: horseId, name: 'Comet' } as never);
    await host.data.db.horseCare.put({
      horseId,
      entries: [
        {
          id: '0190a000-0000-7000-8000-0000000000c2',
          horseId,
          kind: 'coggins',
          doneOn: '2025-10-01',
          nextDueOn: '2026-10-01',
          notes: null,
          recordedBy: '0190a000-0000-7000-8000-0000000000c3',
          recordedByName: 'Ann',
          createdAt: '2025-10-01T10:00:00.000Z',
        },
      ],
    });
    const due = await controls.loadDue({ today: '2026-11-23', limit: 50 });
    expect(due.rows.map((row) => [row.title, row.overdue])).toEqual([['Coggins test overdue: Comet', true]]);
    expect(due.total).toBe(1);
    expect(await controls.loadDue({ today: '2026-09-01', limit: 50 })).toEqual({ rows: [], total: 0 });
  });

  // 10,000 care entries projected in fake-indexeddb: 3–3.5 s alone on a 2-core machine, over
  // the default 5 s when other tests or a bench share it.
  it("[K4] with 10,000 items due the page gets 50 rows, the count and the bell's marks as one string, whatever the number", async () => {
    const { host, client } = await openHost(true);
    const controls = { ...remoteControls(client), ...remoteQueries(client) };
    await controls.idle();
    const id = (prefix: string, i: number) => `0190a000-0000-7000-8${prefix}-${String(i).padStart(12, '0')}`;
    await host.data.db.horses.bulkPut(Array.from({ length: 10_000 }, (_, i) => ({ id: id('001', i), name: `Horse ${i}` }) as never));
    await host.data.db.horseCare.bulkPut(
      Array.from({ length: 10_000 }, (_, i) => ({
        horseId: id('001', i),
        entries: [
          {
            id: id('002', i),
            horseId: id('001', i),
            kind: 'farrier' as const,
            doneOn: '2025-10-01',
            nextDueOn: '2026-10-01',
            notes: null,
            recordedBy: id('003', 0),
            recordedByName: 'Ann',
            createdAt: '2025-10-01T10:00:00.000Z',
          },
        ],
      })),
    );
    const user = { id: 'user-ann', notify: true, maintenanceAlerts: true };
    const due = await controls.loadDue({ today: '2026-11-23', limit: 50, user });
    expect(due.rows).toHaveLength(50);
    expect(due.total).toBe(10_000);
    const marks = due.marks!;
    expect(marks).toMatchObject({ newDue: true, freshCount: 10_000 });
    // What is announced: the first of them (a summary counts the rest), not the 10,000.
    expect(marks.fresh.map((row) => row.title)).toEqual(due.rows.slice(0, 3).map((row) => row.title));
    expect(typeof marks.hashes).toBe('string');
    expect(new Set(marks.hashes.split(',')).size).toBe(10_000);
    // The Dashboard's card asks for 8 and no marks.
    const card = await controls.loadDue({ today: '2026-11-23', limit: 8 });
    expect(card.rows).toHaveLength(8);
    expect(card.marks).toBeUndefined();
    // Asking for more than a page shows gets a page: the answer stays bounded.
    expect((await controls.loadDue({ today: '2026-11-23', limit: Number.POSITIVE_INFINITY })).rows).toHaveLength(50);
    // Announced once: the next read has nothing fresh; the dot stays until the list is seen.
    expect((await controls.loadDue({ today: '2026-11-23', limit: 50, user })).marks).toMatchObject({
      newDue: true,
      freshCount: 0,
      fresh: [],
    });
  }, 20_000);

  it("[D5] the Dashboard's figures are summed in the host: the page gets a few numbers, not the ranch", async () => {
    const { host, client } = await openHost(true);
    const controls = { ...remoteControls(client), ...remoteQueries(client) };
    // After the load's reconcile, which would take away rows the document does not hold.
    await controls.idle();
    const status = '0190a000-0000-7000-8000-0000000000d1';
    await host.data.db.statuses.put({ id: status, name: 'Available', isActive: true });
    await host.data.db.horses.bulkPut([
      { id: '0190a000-0000-7000-8000-0000000000d2', name: 'Comet', statusId: status, priceUsd: '12500.50' },
      { id: '0190a000-0000-7000-8000-0000000000d3', name: 'Dusty', statusId: null, priceUsd: null },
    ] as never[]);
    const figures = await controls.loadFigures('2026-11-23');
    expect(figures).toMatchObject({ totalHorses: 2, inventoryValueCents: 1_250_050, activeSales: 0, pastDueCents: 0 });
    expect(figures.statusDistribution).toContainEqual(expect.objectContaining({ name: 'Available', count: 1 }));
  });

  it('refuses what is neither a write nor a control', async () => {
    const { client } = await openHost(true);
    await expect(client.call('data')).rejects.toThrow('No such method: data');
    await expect(client.call('horses.replacePhoto', 'a', 'b')).rejects.toThrow('No such method');
  });
});
