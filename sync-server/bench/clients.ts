import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { DOC_NAME, SYNC_PATH } from '../../shared/index.ts';

/** Which server a stock y-websocket client talks to. */
export type Target = { kind: 'ours' | 'reference'; url: string; cookie: string };

/** A `ws` WebSocket that sends the session cookie on the upgrade (browsers do it themselves). */
function socketClass(headers: Record<string, string>) {
  return class CookieWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  };
}

export type Client = { doc: Y.Doc; provider: WebsocketProvider; synced: Promise<void>; destroy(): void };

/** A stock y-websocket client of `ranch` on either server. */
export function connect(target: Target, doc = new Y.Doc(), params: Record<string, string> = {}): Client {
  const base = target.url.replace(/^http/, 'ws') + (target.kind === 'ours' ? SYNC_PATH : '');
  const provider = new WebsocketProvider(base, DOC_NAME, doc, {
    WebSocketPolyfill: socketClass(target.cookie ? { cookie: target.cookie } : {}) as unknown as typeof globalThis.WebSocket,
    // Otherwise providers in one process talk over BroadcastChannel and bypass the server.
    disableBc: true,
    params,
  });
  const synced = new Promise<void>((resolve) => {
    const onSync = (isSynced: boolean) => {
      if (!isSynced) return;
      provider.off('sync', onSync);
      resolve();
    };
    provider.on('sync', onSync);
  });
  return {
    doc,
    provider,
    synced,
    destroy() {
      provider.destroy();
      doc.destroy();
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const median = (values: number[]) => percentile(values, 50);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `done()` holds, polling; rejects after `timeoutMs`. */
export async function until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(2);
  }
}
