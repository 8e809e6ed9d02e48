import { afterEach, describe, expect, it, vi } from 'vitest';
import { electHost, type HostedClient } from './elected-host.ts';
import { createRpcHost } from './rpc/host.ts';
import type { Endpoint } from './rpc/wire.ts';

/** One device's lock manager: requests are granted in order, and a tab's closing releases its lock. */
function deviceLocks() {
  const waiting: { tab: string; grant: () => void }[] = [];
  let holder: string | null = null;
  const next = () => {
    if (holder !== null) return;
    const first = waiting.shift();
    if (!first) return;
    holder = first.tab;
    first.grant();
  };
  return {
    forTab(tab: string): Pick<LockManager, 'request'> {
      return {
        request: ((_name: string, callback: () => Promise<unknown>) => {
          waiting.push({ tab, grant: () => void callback() });
          next();
          return new Promise(() => {});
        }) as LockManager['request'],
      };
    },
    /** The tab closed: the browser releases what it held. */
    closed(tab: string) {
      const index = waiting.findIndex((entry) => entry.tab === tab);
      if (index >= 0) waiting.splice(index, 1);
      if (holder === tab) holder = null;
      next();
    },
  };
}

let device = 0;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Tabs of one device: each tab's worker answers `whoami` with the tab's name, and `hang` never. */
function deviceTabs() {
  device += 1;
  const locks = deviceLocks();
  const channelName = `ranch-data-rpc-test-${device}`;
  const tabs = new Map<string, { channel: BroadcastChannel; stopWorker: () => void; hosted: HostedClient }>();
  const open = (name: string) => {
    const channel = new BroadcastChannel(channelName);
    let stopWorker = () => {};
    const hosted = electHost({
      locks: locks.forTab(name),
      channel: () => channel,
      startWorker() {
        const { port1, port2 } = new MessageChannel();
        const host = createRpcHost({ whoami: () => `worker of ${name}`, hang: () => new Promise(() => {}) });
        const detach = host.attach(port1 as unknown as Endpoint);
        stopWorker = () => {
          detach();
          port1.close();
          port2.close();
        };
        return port2 as unknown as Endpoint;
      },
    });
    tabs.set(name, { channel, stopWorker: () => stopWorker(), hosted });
    cleanups.push(() => close(name));
    return hosted;
  };
  const close = (name: string) => {
    const tab = tabs.get(name);
    if (!tab) return;
    tabs.delete(name);
    tab.hosted.client.close();
    tab.stopWorker();
    tab.channel.close();
    locks.closed(name);
  };
  return { open, close };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('several tabs without a SharedWorker: one elected host', () => {
  it('[O2] the first tab hosts the data; another tab calls its worker over the channel', async () => {
    const device = deviceTabs();
    const first = device.open('A');
    await settle();
    const second = device.open('B');
    expect(first.isHost).toBe(true);
    expect(second.isHost).toBe(false);
    expect(await first.client.call('whoami')).toBe('worker of A');
    expect(await second.client.call('whoami')).toBe('worker of A');
  });

  it('[O2] when the host tab closes, the next one hosts: calls that waited fail, the others hear of it', async () => {
    const device = deviceTabs();
    device.open('A');
    await settle();
    const second = device.open('B');
    const third = device.open('C');
    expect(await third.client.call('whoami')).toBe('worker of A');
    let thirdHeard = 0;
    third.onNewHost(() => (thirdHeard += 1));

    const waiting = second.client.call('hang');
    device.close('A');
    await expect(waiting).rejects.toThrow('The data host changed while this was saving. Try again.');
    expect(second.isHost).toBe(true);
    expect(third.isHost).toBe(false);
    await vi.waitFor(() => expect(thirdHeard).toBe(1));
    expect(await second.client.call('whoami')).toBe('worker of B');
    expect(await third.client.call('whoami')).toBe('worker of B');
  });
});
