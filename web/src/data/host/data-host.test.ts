import { afterEach, describe, expect, it } from 'vitest';
import { createRpcClient, type RpcClient } from '../rpc/client.ts';
import type { Endpoint } from '../rpc/wire.ts';
import { remoteWrites } from '../rpc/writes-rpc.ts';
import { openRanchDb } from '../db.ts';
import { createDataHost, type DataHost } from './data-host.ts';
import { type HostEvents, onHostEvent, remoteControls } from './host-api.ts';

let counter = 0;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The host in this thread and a page's client over a MessageChannel, as over the data worker's port. */
async function openHost(loadAtOnce = false, rowsOnDevice = false): Promise<{ host: DataHost; client: RpcClient }> {
  counter += 1;
  const suffix = `${Date.now()}-${counter}`;
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
    const controls = remoteControls(client);
    const writes = remoteWrites(client);
    const loaded = eventWhere(client, 'loaded', (value) => value);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.data.docLoaded).toBe(false);
    await controls.startLoading();
    expect(await loaded).toBe(true);
    await controls.idle();
    const breedId = await writes.lookups.create('breeds', { name: 'Arabian' });
    await expect.poll(() => host.data.db.breeds.get(breedId)).toEqual({ id: breedId, name: 'Arabian', isActive: true });
    await expect(writes.lookups.rename('breeds', breedId, { name: ' ' })).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(controls.paymentSaleId('0190a000-0000-7000-8000-0000000000aa')).resolves.toBeNull();
  });

  it('a tab that connects gets the current state; status and the waiting count follow writes', async () => {
    const { client } = await openHost(true);
    const status = await eventWhere(client, 'status', () => true);
    expect(status).toMatchObject({ connection: 'disconnected', saved: true, sessionExpired: false });
    const controls = remoteControls(client);
    await controls.idle();
    const unsaved = eventWhere(client, 'status', (next) => !next.saved);
    const counted = eventWhere(client, 'waiting', (count) => count >= 2);
    const writes = remoteWrites(client);
    await writes.owners.create({ firstName: 'Ann', lastName: 'Lee' });
    await writes.buyers.create({ firstName: 'Bo', lastName: 'Hart' });
    expect((await unsaved).saved).toBe(false);
    expect(await counted).toBe(2);
    expect(await controls.countUnsaved()).toBe(2);
  });

  it('refuses what is neither a write nor a control', async () => {
    const { client } = await openHost(true);
    await expect(client.call('data')).rejects.toThrow('No such method: data');
    await expect(client.call('horses.replacePhoto', 'a', 'b')).rejects.toThrow('No such method');
  });
});
