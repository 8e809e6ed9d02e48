import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import * as decoding from 'lib0/decoding';
import {
  DOC_NAME,
  MESSAGE_ACCESS,
  MESSAGE_ACK,
  MESSAGE_COMPENSATED,
  MESSAGE_EPOCH,
  SYNC_PATH,
  type CompensationNotice,
} from '../../../shared/index.ts';

/** A `ws` WebSocket that sends the session cookie (and optionally an Origin) on the upgrade. */
function socketClass(headers: Record<string, string>, options: WebSocket.ClientOptions = {}) {
  return class CookieWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { ...options, headers });
    }
  };
}

export type Device = { doc: Y.Doc; provider: WebsocketProvider; destroy(): void };

/**
 * A device as the stock y-websocket client sees it. `disableBc` keeps two providers in
 * one process from talking over BroadcastChannel instead of through the server.
 */
export function connectDevice(
  baseUrl: string,
  cookie: string,
  options: { params?: Record<string, string>; origin?: string; socket?: WebSocket.ClientOptions; clientId?: number; doc?: Y.Doc } = {},
): Device {
  // `doc`: a device that kept its document (stored state) while offline.
  const doc = options.doc ?? new Y.Doc();
  // A chosen client id decides which of two concurrent writes of a key Yjs keeps (the higher).
  if (options.clientId !== undefined) doc.clientID = options.clientId;
  const headers: Record<string, string> = { cookie };
  if (options.origin) headers.origin = options.origin;
  const provider = new WebsocketProvider(baseUrl.replace(/^http/, 'ws') + SYNC_PATH, DOC_NAME, doc, {
    WebSocketPolyfill: socketClass(headers, options.socket) as unknown as typeof globalThis.WebSocket,
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

/**
 * Opens a raw socket and reports how it ended: the close code, and how many messages came
 * before it. An accepted socket starts syncing at once: its first message reports 'open'.
 */
export function connectionOutcome(
  baseUrl: string,
  headers: Record<string, string>,
  path = `${SYNC_PATH}/${DOC_NAME}`,
): Promise<{ code: number | 'open'; messages: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(baseUrl.replace(/^http/, 'ws') + path, { headers });
    socket.once('message', () => {
      resolve({ code: 'open', messages: 1 });
      socket.close();
    });
    socket.on('close', (code) => resolve({ code, messages: 0 }));
    socket.on('error', reject);
  });
}

/**
 * Asks the server for acknowledgements (`ack=1`) and tracks the highest clock of this
 * device's own client id that the server has made durable.
 */
export function connectAckedDevice(
  baseUrl: string,
  cookie: string,
  clientId?: number,
): Device & { ackedClock(): number; localClock(): number; notices: CompensationNotice[]; epochs: string[] } {
  const device = connectDevice(baseUrl, cookie, { params: { ack: '1' }, ...(clientId === undefined ? {} : { clientId }) });
  let acked = 0;
  const notices: CompensationNotice[] = [];
  const epochs: string[] = [];
  device.provider.messageHandlers[MESSAGE_EPOCH] = (_encoder, decoder) => void epochs.push(decoding.readVarString(decoder));
  device.provider.messageHandlers[MESSAGE_ACK] = (_encoder, decoder) => {
    const clock = Y.decodeStateVector(decoding.readVarUint8Array(decoder)).get(device.doc.clientID) ?? 0;
    acked = Math.max(acked, clock);
  };
  device.provider.messageHandlers[MESSAGE_ACCESS] = () => {};
  device.provider.messageHandlers[MESSAGE_COMPENSATED] = (_encoder, decoder) => {
    notices.push(...(JSON.parse(decoding.readVarString(decoder)) as CompensationNotice[]));
  };
  return {
    ...device,
    notices,
    epochs,
    ackedClock: () => acked,
    localClock: () => Y.decodeStateVector(Y.encodeStateVector(device.doc)).get(device.doc.clientID) ?? 0,
  };
}
