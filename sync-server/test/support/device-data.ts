import WebSocket from 'ws';
import { SYNC_PATH } from '../../../shared/index.ts';
import { openRanchData, type RanchData } from '../../../web/src/data/ranch-data.ts';
import type { ApiClient } from './client.ts';

/** A WebSocket class for the device's sync socket in Node, sending the session cookie. */
export function socketWith(cookie: string): typeof globalThis.WebSocket {
  return class CookieWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie } });
    }
  } as unknown as typeof globalThis.WebSocket;
}

/** The device's databases (fake-indexeddb): the same names open the same device again. */
export type DeviceNames = { docDbName: string; readDbName: string };

/**
 * The app's whole data layer (web/src/data/ranch-data.ts) in Node against a test server,
 * signed in with `cookie`: its socket, and its ledger's pull and push through `fetchLedger`
 * (a test's failures stand between it and the server), with a short backoff.
 */
export function openDeviceData(serverUrl: string, cookie: string, names: DeviceNames, fetchLedger: typeof fetch = fetch): RanchData {
  return openRanchData({
    ...names,
    syncUrl: serverUrl.replace(/^http/, 'ws') + SYNC_PATH,
    WebSocketPolyfill: socketWith(cookie),
    ledger: {
      url: `${serverUrl}/api/ledger`,
      fetch: (input, init) => fetchLedger(input, { ...init, headers: { ...(init?.headers as object), cookie } }),
      baseDelayMs: 50,
    },
  });
}

/** Who the device's data layer is signed in as (`connect(owner)`): `staff`'s own account. */
export async function ownerOf(staff: ApiClient, name = 'Staff'): Promise<{ userId: string; name: string }> {
  const me = (await (await staff.request('/api/auth/user')).json()) as { id: string };
  return { userId: me.id, name };
}
