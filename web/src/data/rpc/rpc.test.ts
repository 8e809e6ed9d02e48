// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { openTestData } from '../../../test/ranch-data.ts';
import type { RanchData } from '../ranch-data.ts';
import { ValidationError } from '../repositories/validate.ts';
import { createRpcClient, type RpcClient } from './client.ts';
import { createRpcHost } from './host.ts';
import type { Endpoint } from './wire.ts';
import { hostWrites } from '../outbox/outbox.ts';
import { connectOverChannel } from '../../../test/rpc-channel.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function connected(handlers: Parameters<typeof createRpcHost>[0], options: Parameters<typeof createRpcHost>[1] = {}) {
  const connection = connectOverChannel(handlers, options);
  cleanups.push(() => connection.close());
  return connection;
}

function nextEvent(client: RpcClient, name: string): Promise<unknown> {
  return new Promise((resolve) => {
    const stop = client.on(name, (payload) => {
      stop();
      resolve(payload);
    });
  });
}

describe('RPC between the page and the data worker', () => {
  it('answers each call with its own result, whatever order they finish in', async () => {
    const { client } = connected({
      echo: async (value: never, delay: never) => {
        await new Promise((resolve) => setTimeout(resolve, delay));
        return value;
      },
      sum: (a: never, b: never) => (a as number) + (b as number),
    });
    const answers = await Promise.all([client.call('echo', { a: [1] }, 30), client.call('echo', 'fast', 0), client.call('sum', 2, 3)]);
    expect(answers).toEqual([{ a: [1] }, 'fast', 5]);
  });

  it('a throw in the host is a rejection with its name, message and own fields; an unknown method is refused', async () => {
    const { client } = connected({
      refuse: () => {
        throw new ValidationError([{ path: 'name', message: 'Name is required' }]);
      },
      odd: () => Promise.reject('plain string'),
    });
    const error = await client.call('refuse').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ValidationError',
      message: 'Name is required',
      issues: [{ path: 'name', message: 'Name is required' }],
    });
    await expect(client.call('odd')).rejects.toThrow('plain string');
    await expect(client.call('nothing')).rejects.toThrow('No such method: nothing');
    await expect(client.call('toString')).rejects.toThrow('No such method: toString');
  });

  it('events reach every client; a client that says hello gets the snapshot, to itself only', async () => {
    let state = { connection: 'connecting' };
    const channel = new BroadcastChannel(`rpc-test-${Date.now()}`);
    const host = createRpcHost({ whoami: () => 'host' }, { snapshot: () => [['status', state]] });
    host.attach(channel as unknown as Endpoint);
    const first = createRpcClient(new BroadcastChannel(channel.name) as unknown as Endpoint, 'first');
    const firstSnapshot = nextEvent(first, 'status');
    expect(await firstSnapshot).toEqual({ connection: 'connecting' });
    let firstStatuses = 0;
    first.on('status', () => (firstStatuses += 1));
    state = { connection: 'connected' };
    const second = createRpcClient(new BroadcastChannel(channel.name) as unknown as Endpoint, 'second');
    expect(await nextEvent(second, 'status')).toEqual({ connection: 'connected' });
    // Answers on one channel shared by both are addressed: each gets its own.
    expect(await Promise.all([first.call('whoami'), second.call('whoami')])).toEqual(['host', 'host']);
    const both = Promise.all([nextEvent(first, 'notices'), nextEvent(second, 'notices')]);
    host.emit('notices', { batch: 1 });
    expect(await both).toEqual([{ batch: 1 }, { batch: 1 }]);
    expect(firstStatuses).toBe(0);
    first.close();
    second.close();
    host.close();
    channel.close();
  });

  it('calls still waiting fail when the host goes away, and a closed client refuses new ones', async () => {
    const { client } = connected({ never: () => new Promise(() => {}) });
    const waiting = client.call('never');
    client.failPending(new Error('The tab holding the data closed; try again'));
    await expect(waiting).rejects.toThrow('try again');
    const later = client.call('never');
    client.close();
    await expect(later).rejects.toThrow('The data layer is closed');
    await expect(client.call('never')).rejects.toThrow('The data layer is closed');
  });

  it('refuses arguments that cannot be cloned before sending them', async () => {
    const { client } = connected({ take: () => 'taken' });
    await expect(client.call('take', () => 1)).rejects.toThrow();
    expect(await client.call('take', 1)).toBe('taken');
  });
});

describe('RanchWrites through the RPC', () => {
  let data: RanchData;

  it('[O2] writes land in the document and the read model; refusals keep their field issues', async () => {
    data = openTestData();
    cleanups.push(async () => {
      await data.persistence.clearData();
      await data.destroy();
    });
    await data.projection.ready;
    const { client } = connected({
      applyIntent: (id: string) => data.applyIntent(id),
      queuePhoto: (id: string) => data.photos.queue(id),
    });
    const writes = hostWrites(data.db, { applyIntent: (id) => client.call('applyIntent', id), queuePhoto: async () => {} });
    const breedId = await writes.lookups.create('breeds', { name: 'Arabian' });
    const colorId = await writes.lookups.create('colors', { name: 'Bay' });
    const genderId = await writes.lookups.create('genders', { name: 'Mare' });
    const id = await writes.horses.create({ name: 'Comet', breedId, colorId, genderId, priceUsd: '$1,000' });
    await expect.poll(() => data.db.horses.get(id)).toMatchObject({ name: 'Comet', priceUsd: '1000.00' });
    const refused = await writes.horses.create({ name: '', breedId, colorId, genderId }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'ValidationError', issues: [{ path: 'name', message: 'Name is required' }] });
    expect(await writes.horses.remove(id)).toBe(true);
    await expect.poll(() => data.db.horses.count()).toBe(0);
  });
});
