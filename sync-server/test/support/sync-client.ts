import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { DOC_NAME, SYNC_PATH } from '../../../shared/index.ts';

/** A `ws` WebSocket that sends the session cookie (and optionally an Origin) on the upgrade. */
function socketClass(headers: Record<string, string>) {
  return class CookieWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  };
}

export type Device = { doc: Y.Doc; provider: WebsocketProvider; destroy(): void };

/**
 * A device as the stock y-websocket client sees it. `disableBc` keeps two providers in
 * one process from talking over BroadcastChannel instead of through the server.
 */
export function connectDevice(baseUrl: string, cookie: string, options: { params?: Record<string, string>; origin?: string } = {}): Device {
  const doc = new Y.Doc();
  const headers: Record<string, string> = { cookie };
  if (options.origin) headers.origin = options.origin;
  const provider = new WebsocketProvider(baseUrl.replace(/^http/, 'ws') + SYNC_PATH, DOC_NAME, doc, {
    WebSocketPolyfill: socketClass(headers) as unknown as typeof globalThis.WebSocket,
    disableBc: true,
    params: options.params ?? {},
  });
  return {
    doc,
    provider,
    destroy() {
      provider.destroy();
      doc.destroy();
    },
  };
}

export function whenSynced(device: Device): Promise<void> {
  if (device.provider.synced) return Promise.resolve();
  return new Promise((resolve) => {
    const onSync = (synced: boolean) => {
      if (!synced) return;
      device.provider.off('sync', onSync);
      resolve();
    };
    device.provider.on('sync', onSync);
  });
}

/** Opens a raw upgrade and reports the HTTP status the server answered with. */
export function upgradeStatus(baseUrl: string, headers: Record<string, string>, path = `${SYNC_PATH}/${DOC_NAME}`): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(baseUrl.replace(/^http/, 'ws') + path, { headers });
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}
