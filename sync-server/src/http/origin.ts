import type { Context } from 'hono';

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

export function isSecureRequest(c: Context): boolean {
  const forwarded = c.req.header('x-forwarded-proto');
  if (forwarded) return forwarded.split(',')[0]?.trim() === 'https';
  return new URL(c.req.url).protocol === 'https:';
}
