import { createRpcClient, type RpcClient } from '../src/data/rpc/client.ts';
import { createRpcHost, type RpcHost } from '../src/data/rpc/host.ts';
import type { Endpoint } from '../src/data/rpc/wire.ts';

/**
 * A host and a client on the two ends of a MessageChannel, as the page and a dedicated
 * worker; `close` takes both down.
 */
export function connectOverChannel(
  handlers: Parameters<typeof createRpcHost>[0],
  options: Parameters<typeof createRpcHost>[1] = {},
): { host: RpcHost; client: RpcClient; close(): void } {
  const channel = new MessageChannel();
  const host = createRpcHost(handlers, options);
  host.attach(channel.port1 as unknown as Endpoint);
  const client = createRpcClient(channel.port2 as unknown as Endpoint);
  return {
    host,
    client,
    close() {
      client.close();
      host.close();
      channel.port1.close();
      channel.port2.close();
    },
  };
}
