import type { BrowserContext } from 'playwright-core';
import { startTcpProxy, type TcpProxy } from '../../../sync-server/test/support/tcp-proxy.ts';
import type { AppServer } from './app-server.ts';

/**
 * A phone's own link to the server, whose signal the test can take away for real.
 *
 * Chromium's emulated offline state (`context.setOffline`) reaches the page's scripts
 * (navigator.onLine, its fetches) but not a SharedWorker or a dedicated worker, so the
 * data worker could still reach the server from a "phone with no signal". A real phone
 * loses the network for every thread, which is what this link plays: the phone's context
 * opens the app through a loopback proxy (its own origin), and going offline both sets
 * the emulated state (the page's navigator.onLine and events) and cuts the proxy (open
 * connections drop, new ones are refused: every thread is offline). Other contexts (the
 * office) use the server directly and stay online.
 */
export type PhoneLink = {
  /** The app's address as the phone opens it. */
  url: string;
  setOffline(context: BrowserContext, offline: boolean): Promise<void>;
  close(): Promise<void>;
};

export async function startPhoneLink(server: AppServer): Promise<PhoneLink> {
  const { port } = new URL(server.url);
  const proxy: TcpProxy = await startTcpProxy({ host: '127.0.0.1', port: Number(port) });
  return {
    url: `http://127.0.0.1:${proxy.port}`,
    async setOffline(context, offline) {
      // Cut first and restore last, so no thread slips a request through the gap.
      if (offline) proxy.cut();
      await context.setOffline(offline);
      if (!offline) proxy.restore();
    },
    close: () => proxy.close(),
  };
}
