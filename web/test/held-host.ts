import { createDataHost, type DataHost } from '../src/data/host/data-host.ts';
import { createRpcClient } from '../src/data/rpc/client.ts';
import type { Endpoint } from '../src/data/rpc/wire.ts';
import { openWorkerData, type WorkerData } from '../src/data/worker-client.ts';

/**
 * The page and the host joined by a relay that holds every message both ways until
 * released: the data worker busy applying the stored document answers nothing and says
 * nothing. `drop` forgets what was held (the tab closed before the host heard of it).
 */
export function heldLink() {
  const hostSide = new MessageChannel();
  const pageSide = new MessageChannel();
  const held: [MessagePort, unknown][] = [];
  let holding = true;
  const relay = (from: MessagePort, to: MessagePort) => {
    from.addEventListener('message', (event) => (holding ? held.push([to, event.data]) : to.postMessage(event.data)));
    from.start();
  };
  relay(hostSide.port2, pageSide.port2);
  relay(pageSide.port2, hostSide.port2);
  return {
    hostEnd: hostSide.port1 as unknown as Endpoint,
    pageEnd: pageSide.port1 as unknown as Endpoint,
    release() {
      holding = false;
      for (const [to, data] of held.splice(0)) to.postMessage(data);
    },
    drop: () => void held.splice(0),
    close() {
      for (const port of [hostSide.port1, hostSide.port2, pageSide.port1, pageSide.port2]) port.close();
    },
  };
}

export type Setup = {
  host: DataHost;
  page: WorkerData;
  link: ReturnType<typeof heldLink>;
  docDbName: string;
  readDbName: string;
  /** Closes the page and the host (once). */
  close(): Promise<void>;
};

/**
 * A host on the device's databases and a page on a held link. Give the read model a row
 * first (the host then waits to be told to load, as in a start that shows rows).
 */
export function openHeld(names: { docDbName: string; readDbName: string }, loadAtOnce: boolean): Setup {
  const { docDbName, readDbName } = names;
  const host = createDataHost({ docDbName, readDbName, loadAtOnce });
  const link = heldLink();
  host.rpc.attach(link.hostEnd);
  const page = openWorkerData(createRpcClient(link.pageEnd), { readDbName });
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      page.destroy();
      link.close();
      // A host that never started loading waits for its load forever in destroy() (ydoc.ts
      // awaits the persistence it has not made): it holds nothing of the document to close.
      const destroyed = host.destroy();
      if (host.data.docLoaded) await destroyed;
    })();
    return closing;
  };
  return { host, page, link, docDbName, readDbName, close };
}
