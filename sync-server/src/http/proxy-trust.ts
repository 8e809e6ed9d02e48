import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** This machine: what RANCH_TRUST_PROXY=1 trusts (a proxy on the same host). */
export const LOOPBACK_PROXIES: readonly string[] = ['127.0.0.0/8', '::1'];

/**
 * [A8] [A5] The reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed
 * (RANCH_TRUSTED_PROXIES, addresses or CIDR blocks): only a request whose socket peer is one
 * of them. Anyone else reaching the port directly gets their headers ignored.
 */
export type ProxyTrust = { readonly on: boolean; trusts(address: string | undefined): boolean };

export const NO_PROXY: ProxyTrust = { on: false, trusts: () => false };

/** `true`: a proxy on this machine; a list: those addresses and blocks; `false`/empty: none. */
export function proxyTrust(setting: boolean | readonly string[] | ProxyTrust): ProxyTrust {
  if (typeof setting === 'object' && 'trusts' in setting) return setting;
  const entries = setting === true ? LOOPBACK_PROXIES : setting === false ? [] : setting;
  if (entries.length === 0) return NO_PROXY;
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parseProxyEntry(entry);
    if (!parsed) throw new Error(`Not an address or CIDR block: ${entry}`);
    if (parsed.prefix === undefined) list.addAddress(parsed.address, parsed.family);
    else list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return {
    on: true,
    trusts(address) {
      const peer = plainAddress(address);
      const family = isIP(peer);
      return family !== 0 && list.check(peer, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** An address (`10.0.0.5`, `::1`) or a block (`10.0.0.0/8`, `fd00::/8`); undefined when it is neither. */
export function parseProxyEntry(entry: string): { address: string; prefix?: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return undefined;
  const kind = family === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family: kind };
  const prefix = Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText) || prefix > (family === 4 ? 32 : 128)) return undefined;
  return { address, prefix, family: kind };
}

/** `::ffff:10.0.0.1` (IPv4 on a dual-stack socket) as `10.0.0.1`; a zone id dropped. */
function plainAddress(address: string | undefined): string {
  const raw = (address ?? '').trim().toLowerCase().split('%')[0] ?? '';
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/.test(raw) ? raw.slice(7) : raw;
}

/** Whether the request came through a trusted proxy: its socket peer is one. */
export function fromTrustedProxy(c: Context, trust: ProxyTrust): boolean {
  if (!trust.on) return false;
  try {
    return trust.trusts(getConnInfo(c).remote.address);
  } catch {
    // Not served by @hono/node-server (an in-process app.request): no socket to ask.
    return false;
  }
}

/** Whether the server listens on this machine only (HOST). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || proxyTrust(LOOPBACK_PROXIES).trusts(host);
}
