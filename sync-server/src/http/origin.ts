import type { Context } from 'hono';
import { fromTrustedProxy, type ProxyTrust } from './proxy-trust.ts';

/**
 * Same-origin check for CSRF and WebSocket upgrades. Hono's csrf() only looks at form
 * bodies and skips GET, so JSON writes and upgrades need this. A request without Origin
 * (curl, scripts) is allowed: browsers always send Origin on cross-site writes and upgrades.
 */
export function isAllowedOrigin(c: Context, allowedOrigins: readonly string[]): boolean {
  const origin = c.req.header('origin');
  if (origin === undefined) return true;
  if (allowedOrigins.includes(origin)) return true;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  const host = c.req.header('host');
  return host !== undefined && originHost === host;
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
