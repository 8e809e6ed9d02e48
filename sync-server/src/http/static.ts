import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { MiddlewareHandler } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * Serves the built PWA. Hashed assets are immutable; the service worker, manifest and
 * index.html are revalidated every time so a new version is found. Any other path that is
 * not a file gets index.html (the router shows the screen, or its 404).
 */
export function serveWeb(webDir: string): MiddlewareHandler {
  const root = normalize(webDir + sep);
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const path = decodedPath(c.req.url);
    // A malformed escape (`/%ff`) is the client's mistake: 400, not a 500 and a stack trace per request.
    if (path === null) return c.text('Malformed path', 400, { 'x-content-type-options': 'nosniff' });
    if (path.startsWith('/api/')) return next();
    const file = normalize(join(root, path));
    if (!file.startsWith(root)) return next();
    const served = (await tryFile(file)) ?? (extname(path) === '' ? await tryFile(join(root, 'index.html')) : undefined);
    if (!served) return next();
    const immutable = served.path.includes(`${sep}assets${sep}`);
    const headers = {
      'content-type': TYPES[extname(served.path)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
    };
    return c.req.method === 'HEAD' ? c.body(null, 200, headers) : c.body(new Uint8Array(served.bytes), 200, headers);
  };
}

function decodedPath(url: string): string | null {
  try {
    return decodeURIComponent(new URL(url).pathname);
  } catch {
    return null;
  }
}

async function tryFile(path: string): Promise<{ path: string; bytes: Buffer } | undefined> {
  try {
    if (!(await stat(path)).isFile()) return undefined;
    return { path, bytes: await readFile(path) };
  } catch {
    return undefined;
  }
}
