import type { Endpoint } from '../rpc/wire.ts';
import { createDataHost } from './data-host.ts';

/**
 * The data worker's entry (docs/web.md "The data layer in a worker"): the document and
 * everything that holds it, answering the page that started it. main.tsx starts it with
 * `new Worker(new URL('./data/host/worker.ts', import.meta.url), { type: 'module' })`.
 */
// Once the device is cleared this host holds nothing worth keeping: it ends, and the next
// tab that opens starts a fresh one (docs/web.md "Several tabs, one host").
const host = createDataHost({ onCleared: () => self.close() });
host.rpc.attach(self as unknown as Endpoint);
