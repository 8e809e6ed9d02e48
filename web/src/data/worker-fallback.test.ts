// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { fallBackIfWorkerFails, workerFailedBefore } from './worker-fallback.ts';

/** A client whose host events the test sends. */
function fakeClient() {
  const listeners = new Map<string, (payload: unknown) => void>();
  return {
    on(name: string, listener: (payload: unknown) => void) {
      listeners.set(name, listener);
      return () => listeners.delete(name);
    },
    hostSays: (name: string) => listeners.get(name)?.({}),
  };
}

afterEach(() => sessionStorage.clear());

describe('a data worker that cannot start', () => {
  it('[O2] failing before it answered: the tab notes it for its session and reloads to elect a host tab instead', () => {
    const worker = new EventTarget();
    let reloads = 0;
    fallBackIfWorkerFails(worker, fakeClient(), () => (reloads += 1));
    expect(workerFailedBefore()).toBe(false);
    worker.dispatchEvent(new Event('error'));
    expect(reloads).toBe(1);
    expect(workerFailedBefore()).toBe(true);
  });

  it('[O2] an error after the worker has answered is not a failure to start', () => {
    const worker = new EventTarget();
    const client = fakeClient();
    let reloads = 0;
    fallBackIfWorkerFails(worker, client, () => (reloads += 1));
    client.hostSays('status');
    worker.dispatchEvent(new Event('error'));
    expect(reloads).toBe(0);
    expect(workerFailedBefore()).toBe(false);
  });
});
