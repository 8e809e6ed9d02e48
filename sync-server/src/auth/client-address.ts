import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { fromTrustedProxy, type ProxyTrust } from '../http/proxy-trust.ts';

/**
 * The address a request came from, for counting failed sign-ins. The socket's peer unless
 * that peer is a trusted reverse proxy (proxy-trust.ts): then the right-most
 * X-Forwarded-For entry, the one our proxy appended (entries left of it are whatever the
 * client chose to send). IPv6 clients are counted per /64, the block one subscriber gets.
 */
export function clientAddress(c: Context, trustProxy: ProxyTrust): string {
  if (fromTrustedProxy(c, trustProxy)) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').pop()?.trim();
    if (forwarded) return normalizeAddress(forwarded);
  }
  try {
    return normalizeAddress(getConnInfo(c).remote.address ?? 'unknown');
  } catch {
    // Not served by @hono/node-server (an in-process app.request): no socket to ask.
    return 'unknown';
  }
}

export function normalizeAddress(raw: string): string {
  const address = raw.trim().toLowerCase().slice(0, 100);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!address.includes(':')) return address;
  return ipv6Prefix64(address.split('%')[0] ?? address);
}

function ipv6Prefix64(address: string): string {
  const [left = '', right] = address.split('::');
  const head = left ? left.split(':') : [];
  const tail = right ? right.split(':') : [];
  const groups = right === undefined ? head : [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail];
  if (groups.length !== 8 || groups.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return address;
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
