import { callWrite, type RanchWrites, WRITE_METHODS, writesThrough } from '../ranch-writes.ts';
import type { RpcClient } from './client.ts';
import type { Handlers } from './host.ts';

/** RanchWrites as calls to the data worker: `horses.create` and so on (docs/web.md "The data layer in a worker"). */
export function remoteWrites(client: Pick<RpcClient, 'call'>): RanchWrites {
  return writesThrough((repository, method, args) => client.call(`${repository}.${method}`, ...args));
}

/** The host's handlers for every RanchWrites method: the writes of the data layer where the document is. */
export function writeHandlers(writes: RanchWrites): Handlers {
  const handlers: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [repository, methods] of Object.entries(WRITE_METHODS)) {
    for (const method of methods as readonly string[]) {
      handlers[`${repository}.${method}`] = (...args) => callWrite(writes, repository as keyof RanchWrites, method, args);
    }
  }
  return handlers;
}
