import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type TcpProxy = {
  port: number;
  /** Drops every connection and refuses new ones: the database is "down". */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
};

/** Where the proxy forwards to: a TCP address, or a unix socket (the embedded database's). */
export type ProxyTarget = { host: string; port: number } | { path: string };

/** A loopback TCP proxy whose link can be cut, to play a Postgres outage. */
export async function startTcpProxy(target: ProxyTarget): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let down = false;
  const server = createServer((client) => {
    if (down) return client.destroy();
    const upstream = 'path' in target ? connect(target.path) : connect(target.port, target.host);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  // Down means what a stopped Postgres means: open connections drop, new ones are refused.
  const cut = () => {
    down = true;
    if (server.listening) server.close();
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    port,
    cut,
    restore() {
      down = false;
      if (!server.listening) server.listen(port, '127.0.0.1');
    },
    async close() {
      cut();
    },
  };
}
