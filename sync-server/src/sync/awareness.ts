import * as awarenessProtocol from 'y-protocols/awareness';
import type { DocumentHost } from './document-host.ts';

const hubs = new WeakMap<DocumentHost, awarenessProtocol.Awareness>();

/**
 * Presence (awareness) of one document: relayed to every connection, the sender included
 * (that echo keeps stock clients from timing the connection out), and kept in memory only.
 */
export function awarenessFor(host: DocumentHost): awarenessProtocol.Awareness {
  const awareness = hubs.get(host);
  if (awareness) return awareness;
  const created = new awarenessProtocol.Awareness(host.doc);
  created.setLocalState(null); // the server itself has no presence
  // Which connection may write which client id, and how much, is checked before an update
  // is applied (AwarenessGuard), so everything applied here is relayed.
  created.on('update', ({ added, updated, removed }: AwarenessChange) => {
    const changed = [...added, ...updated, ...removed];
    const update = awarenessProtocol.encodeAwarenessUpdate(created, changed);
    for (const subscriber of host.subscribers) subscriber.sendAwareness(update);
  });
  hubs.set(host, created);
  return created;
}

type AwarenessChange = { added: number[]; updated: number[]; removed: number[] };
