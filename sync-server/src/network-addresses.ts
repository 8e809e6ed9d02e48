import { networkInterfaces } from 'node:os';

/**
 * [A14] The machine's IPv4 addresses other than loopback: where a phone on the same network
 * reaches this server (when it listens on every address).
 */
export function lanAddresses(interfaces = networkInterfaces()): string[] {
  const found = new Set<string>();
  for (const list of Object.values(interfaces)) {
    for (const entry of list ?? []) if (entry.family === 'IPv4' && !entry.internal) found.add(entry.address);
  }
  return [...found];
}

/** The addresses to print for a path: this machine's first, then the network's (when listening on all). */
export function shownAddresses(url: string, host: string, path: string, lan = lanAddresses()): string[] {
  const port = new URL(url).port;
  const all = host === '0.0.0.0' || host === '::';
  return [`${url}${path}`, ...(all ? lan.map((address) => `http://${address}:${port}${path}`) : [])];
}
