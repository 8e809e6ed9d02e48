import type { Endpoint } from '../rpc/wire.ts';
import { createDataHost } from './data-host.ts';

/**
 * The data host as a SharedWorker (docs/web.md "Several tabs, one host"): every tab of the
 * app connects a port to this one worker, so the device loads the document once and keeps
 * one sync socket, however many tabs are open. It ends when the last tab closes.
 */
// Once the device is cleared this host holds nothing worth keeping: it ends, and the next
// tab that opens starts a fresh one (docs/web.md "Several tabs, one host").
const host = createDataHost({ onCleared: () => self.close() });

(self as unknown as { onconnect: (event: MessageEvent) => void }).onconnect = (event) => {
  const port = event.ports[0];
  if (!port) return;
  const detach = host.rpc.attach(port as unknown as Endpoint);
  // A tab that says goodbye (it is closing) is not written to again.
  port.addEventListener('message', (message: MessageEvent) => {
    if ((message.data as { rpc?: unknown })?.rpc === 'bye') {
      detach();
      port.close();
    }
  });
};
