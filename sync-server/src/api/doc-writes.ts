import type * as Y from 'yjs';
import { apiError } from '../http/errors.ts';
import { DocumentUnavailableError, type DocumentHost } from '../sync/document-host.ts';
import type { DocumentRegistry } from '../sync/registry.ts';

/**
 * REST writes take the devices' path: a server-side Y.Doc transaction, committed (log +
 * projection) before the response and broadcast to every connected device.
 */
export async function writeThroughDoc(
  registry: DocumentRegistry,
  userId: string,
  change: (doc: Y.Doc, host: DocumentHost) => void,
  precheck?: () => Promise<void>,
): Promise<void> {
  try {
    const host = await registry.get();
    await host.commit((doc) => change(doc, host), { kind: 'rest', userId }, precheck);
  } catch (error) {
    if (error instanceof DocumentUnavailableError) throw apiError(503, 'The change could not be saved right now; try again.');
    throw error;
  }
}
