import type { Endpoint } from './wire.ts';

type Listener = (event: MessageEvent) => void;

export type SwitchableEndpoint = Endpoint & {
  /** From now on, messages go to `next` and listeners hear `next` only. */
  switchTo(next: Endpoint): void;
};

/**
 * An endpoint whose other end can change under the RPC client that uses it: a tab that
 * talked to the host tab's worker over a BroadcastChannel, and is elected host itself,
 * talks to its own worker from then on (data/elected-host.ts).
 */
export function switchableEndpoint(initial: Endpoint): SwitchableEndpoint {
  let current = initial;
  const listeners = new Set<Listener>();
  return {
    postMessage: (message) => current.postMessage(message),
    addEventListener(_type, listener) {
      listeners.add(listener);
      current.addEventListener('message', listener);
    },
    removeEventListener(_type, listener) {
      listeners.delete(listener);
      current.removeEventListener('message', listener);
    },
    start: () => current.start?.(),
    switchTo(next) {
      for (const listener of listeners) current.removeEventListener('message', listener);
      current = next;
      for (const listener of listeners) next.addEventListener('message', listener);
      next.start?.();
    },
  };
}
