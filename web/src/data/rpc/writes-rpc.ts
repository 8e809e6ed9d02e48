import { applyWrite, type RanchWrites, WRITE_METHODS, type WriteTargets, writesThrough } from '../ranch-writes.ts';
import type { RpcClient } from './client.ts';
import type { Handlers } from './host.ts';

/** RanchWrites as calls to the data worker: `horses.create` and so on (docs/web.md "The data layer in a worker"). */
export function remoteWrites(client: Pick<RpcClient, 'call'>): RanchWrites {
  return writesThrough((repository, method, args) => client.call(`${repository}.${method}`, ...args));
}

/** The host's handlers for every RanchWrites method, applied to the repositories where the document is. */
export function writeHandlers(targets: WriteTargets): Handlers {
  const handlers: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [repository, methods] of Object.entries(WRITE_METHODS)) {
    for (const method of methods) {
      handlers[`${repository}.${method}`] = (...args) => applyWrite(targets, repository, method, args);
    }
  }
  return handlers;
}
