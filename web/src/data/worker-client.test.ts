// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backgroundTurn } from '../lib/background-turn.ts';
import { createDataHost } from './host/data-host.ts';
import { createRpcClient } from './rpc/client.ts';
import type { Endpoint } from './rpc/wire.ts';
import { openWorkerData, type WorkerData } from './worker-client.ts';

let counter = 0;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The page's client and the data host in this thread, over a MessageChannel as over the worker's port. */
function openBoth(): { page: WorkerData; release(): void } {
  counter += 1;
  const suffix = `${Date.now()}-${counter}`;
  const readDbName = `client-read-${suffix}`;
  const host = createDataHost({ docDbName: `client-doc-${suffix}`, readDbName });
  const channel = new MessageChannel();
  host.rpc.attach(channel.port1 as unknown as Endpoint);
  let release: () => void = () => {};
  const page = openWorkerData(createRpcClient(channel.port2 as unknown as Endpoint), {
    readDbName,
    docLoadAfter: new Promise((resolve) => (release = () => resolve(undefined))),
  });
  cleanups.push(async () => {
    page.destroy();
    channel.port1.close();
    await host.data.persistence.clearData();
    await host.destroy();
  });
  return { page, release };
}

describe("the page's client of the data worker", () => {
  it('[O2] learns that the document loaded, writes through the worker, and its own Dexie sees the rows', async () => {
    const { page, release } = openBoth();
    expect(page.docLoaded).toBe(false);
    release();
    await page.loaded;
    expect(page.docLoaded).toBe(true);
    const breedId = await page.writes.lookups.create('breeds', { name: 'Arabian' });
    await expect.poll(() => page.db.breeds.get(breedId)).toEqual({ id: breedId, name: 'Arabian', isActive: true });
    await page.projection.idle();
  });

  it('[O5] keeps the state the worker reports in the stores screens read', async () => {
    localStorage.removeItem('ranch.lastSyncedAt');
    const { page, release } = openBoth();
    release();
    await page.loaded;
    await page.writes.owners.create({ firstName: 'Ann', lastName: 'Lee' });
    await expect.poll(() => page.status.get().saved).toBe(false);
    await expect.poll(() => page.waiting.get().records).toBe(1);
    expect(await page.countUnsaved()).toBe(1);
    expect(page.status.get()).toMatchObject({ online: navigator.onLine, connection: 'disconnected', sessionExpired: false });
    expect(page.provider.synced).toBe(false);
    await expect(page.writes.owners.create({ firstName: '', lastName: '' })).rejects.toMatchObject({ name: 'ValidationError' });
  });

  it('holds the background reads (the horse list filling in) until a write has been answered', async () => {
    const events: string[] = [];
    vi.stubGlobal('scheduler', {
      postTask(task: () => void) {
        events.push('background turn asked for');
        task();
        return Promise.resolve();
      },
    });
    cleanups.push(() => vi.unstubAllGlobals());
    const { page, release } = openBoth();
    release();
    await page.loaded;
    const created = page.writes.owners.create({ firstName: 'Ann', lastName: 'Lee' }).then(() => events.push('created'));
    await Promise.all([created, backgroundTurn()]);
    expect(events).toEqual(['created', 'background turn asked for']);
  });
});
