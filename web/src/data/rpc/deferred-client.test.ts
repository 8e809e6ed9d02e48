import { afterEach, describe, expect, it } from 'vitest';
import { connectOverChannel } from '../../../test/rpc-channel.ts';
import { deferredClient } from './deferred-client.ts';
import type { Handlers } from './host.ts';

const cleanups: (() => unknown)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const STATE = new Set(['setOnline', 'startLoading']);

/**
 * A deferred client whose host (over a MessageChannel, as a worker) is made only when the
 * client starts it; `heard` is every call the host answered, in order.
 */
function deferredHost(extra: Handlers = {}, waits: (method: string) => boolean = (method) => STATE.has(method)) {
  const heard: string[] = [];
  let hosts = 0;
  let online: unknown = null;
  const handlers: Handlers = {
    setOnline: (value: never) => {
      heard.push(`setOnline ${value}`);
      online = value;
    },
    startLoading: () => void heard.push('startLoading'),
    connect: (user: never) => {
      heard.push(`connect ${user}`);
      return `syncing ${user}, online ${online}`;
    },
    ...extra,
  };
  const client = deferredClient(() => {
    hosts += 1;
    const connection = connectOverChannel(handlers, { snapshot: () => [['status', 'ready']] });
    cleanups.push(() => connection.close());
    return connection.client;
  }, waits);
  cleanups.push(() => client.close());
  return { client, heard, hosts: () => hosts };
}

describe('a data host that starts when it is needed (a device with nobody signed in)', () => {
  it('calls that only say the page’s state start nothing; the first call that needs an answer starts the host, which hears them first, in order', async () => {
    const { client, heard, hosts } = deferredHost();
    void client.call('setOnline', true);
    void client.call('startLoading');
    void client.call('setOnline', false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(hosts()).toBe(0);
    expect(client.started).toBe(false);

    const answer = await client.call('connect', 'ana');
    expect(hosts()).toBe(1);
    expect(answer).toBe('syncing ana, online false');
    expect(heard).toEqual(['setOnline true', 'startLoading', 'setOnline false', 'connect ana']);
    await client.call('connect', 'ben');
    expect(hosts()).toBe(1);
  });

  it('with every call waiting (a start held for the first rows), the host starts when told, and answers what waited in order', async () => {
    const { client, heard, hosts } = deferredHost({}, () => true);
    void client.call('setOnline', true);
    const answer = client.call('connect', 'ana');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(hosts()).toBe(0);
    client.start();
    expect(await answer).toBe('syncing ana, online true');
    expect(heard).toEqual(['setOnline true', 'connect ana']);
    expect(hosts()).toBe(1);
  });

  it('listeners registered before the start hear the started host, and stop when asked', async () => {
    const { client } = deferredHost();
    const kept: unknown[] = [];
    const dropped: unknown[] = [];
    client.on('status', (payload) => kept.push(payload));
    const stop = client.on('status', (payload) => dropped.push(payload));
    client.start();
    await expect.poll(() => kept).toEqual(['ready']);
    expect(dropped).toEqual(['ready']);
    stop();
    client.reintroduce(new Error('a new host'));
    await expect.poll(() => kept).toEqual(['ready', 'ready']);
    expect(dropped).toEqual(['ready']);
  });

  it('closed before it started: what waited is refused, nothing starts, and later calls are refused', async () => {
    const { client, hosts } = deferredHost();
    const waiting = client.call('setOnline', true);
    client.close();
    await expect(waiting).rejects.toThrow('The data layer is closed');
    await expect(client.call('connect', 'ana')).rejects.toThrow('The data layer is closed');
    expect(hosts()).toBe(0);
  });

  it('a refusal from the started host reaches the caller that waited', async () => {
    const { client } = deferredHost({
      countUnsent: () => {
        throw new Error('The document could not load');
      },
    });
    await expect(client.call('countUnsent')).rejects.toThrow('The document could not load');
  });
});
