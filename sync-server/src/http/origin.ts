import type { Context } from 'hono';
import { isIP } from 'node:net';
import { hostname as osHostname } from 'node:os';
import { fromTrustedProxy, NO_PROXY, type ProxyTrust } from './proxy-trust.ts';

/**
 * [A10] Same-origin check for CSRF and WebSocket upgrades. Hono's csrf() only looks at form
 * bodies and skips GET, so JSON writes and upgrades need this. A request without Origin
 * (curl, scripts) is allowed: browsers always send Origin on cross-site writes and upgrades.
 * Otherwise the Origin is one of RANCH_ALLOWED_ORIGINS, or this server as the request reached
 * it: the same scheme (https only through a trusted proxy that says so) and host as `Host`,
 * and a host this server answers to (knownHost) — a page on a domain an attacker points at
 * this machine (DNS rebinding) has its own name in both `Origin` and `Host`.
 */
export function isAllowedOrigin(c: Context, allowedOrigins: readonly string[], trust: ProxyTrust = NO_PROXY): boolean {
  const origin = c.req.header('origin');
  if (origin === undefined) return true;
  if (allowedOrigins.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const host = c.req.header('host')?.toLowerCase();
  if (host === undefined || url.host !== host) return false;
  if (url.protocol !== (isSecureRequest(c, trust) ? 'https:' : 'http:')) return false;
  return fromTrustedProxy(c, trust) || knownHost(url.hostname, allowedOrigins);
}

/**
 * [A10] The names this server answers to when reached directly: an IP address (what phones on
 * the network use; a DNS rebinding needs a name), `localhost`, this machine's name (and
 * `<name>.local`), and the hosts of RANCH_ALLOWED_ORIGINS. Behind a trusted proxy, the proxy
 * chose the host. Any other name is refused: add its origin to RANCH_ALLOWED_ORIGINS.
 */
export function knownHost(hostname: string, allowedOrigins: readonly string[]): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost')) return true;
  const machine = osHostname().toLowerCase();
  if (name === machine || name === `${machine}.local`) return true;
  return allowedOrigins.some((allowed) => {
    try {
      return new URL(allowed).hostname.toLowerCase() === name;
    } catch {
      return false;
    }
  });
}

/**
 * Whether the browser reached us over HTTPS: said by the proxy's `X-Forwarded-Proto` only
 * when the request came from a trusted proxy (RANCH_TRUSTED_PROXIES, or RANCH_TRUST_PROXY=1
 * for one on this machine); anyone can send that header otherwise.
 */
export function isSecureRequest(c: Context, trustProxy: ProxyTrust): boolean {
  const forwarded = fromTrustedProxy(c, trustProxy) ? c.req.header('x-forwarded-proto') : undefined;
  if (forwarded) return forwarded.split(',')[0]?.trim() === 'https';
  return new URL(c.req.url).protocol === 'https:';
}

/**
 * A state-changing request without `Origin` comes from a script (curl, a stock client) or
 * from a browser that left it out: the browser then says where the request came from in
 * `Sec-Fetch-Site`, and anything but this origin is refused.
 */
export function isForeignWithoutOrigin(c: Context): boolean {
  if (c.req.header('origin') !== undefined) return false;
  const site = c.req.header('sec-fetch-site');
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}
