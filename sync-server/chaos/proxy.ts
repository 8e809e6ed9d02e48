import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * A loopback TCP proxy the nemesis drives: between a device and the server (a load
 * balancer that can be pointed at another instance) or between the server and Postgres.
 * `pause` is a partition: connections stay open but no byte crosses until `resume`
 * (what a dead network path looks like); `cut` drops every connection and refuses new
 * ones (what a stopped Postgres or a lost route looks like) until `restore`.
 */
export type ChaosProxy = {
  port: number;
  /** Points new connections at another port; `drop` also ends the open ones. */
  retarget(port: number, drop?: boolean): void;
  pause(): void;
  resume(): void;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
};

export async function startChaosProxy(targetPort: number): Promise<ChaosProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let target = targetPort;
  let down = false;
  let paused = false;
  const drop = () => {
    for (const [client, upstream] of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  const server = createServer((client) => {
    if (down) return client.destroy();
    const upstream = connect(target, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream).pipe(client);
    if (paused) for (const socket of pair) socket.pause();
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    retarget(next, dropOpen = false) {
      target = next;
      if (dropOpen) drop();
    },
    pause() {
      paused = true;
      // Neither side reads: bytes wait in the kernel's buffers, as on a dead path.
      for (const pair of pairs) for (const socket of pair) socket.pause();
    },
    resume() {
      paused = false;
      for (const pair of pairs) for (const socket of pair) socket.resume();
    },
    cut() {
      down = true;
      // Refused, as by a stopped Postgres or a lost route (not accepted and then closed).
      if (server.listening) server.close();
      drop();
    },
    restore() {
      down = false;
      if (!server.listening) server.listen(port, '127.0.0.1');
    },
    async close() {
      down = true;
      drop();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
