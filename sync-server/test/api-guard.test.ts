import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import type { Sql } from '../src/db/client.ts';
import type { DocumentRegistry } from '../src/sync/registry.ts';

/**
 * The /api routes that need no session. Every other route is behind `requireUser` on the
 * signed-in router (app.ts): adding one here is a decision, not an accident of mount order.
 */
const PUBLIC = [
  'GET /api/health',
  'GET /api/login',
  'POST /api/login',
  'GET /api/logout',
  'POST /api/logout',
  'GET /api/sync/:doc',
  // [U17] [U18] An invitation or password link: the token it carries is the credential.
  'GET /api/account-link/:token',
  'POST /api/account-link',
];

const ID = '00000000-0000-4000-8000-000000000001';

/**
 * The app in process. Nothing reaches the database or the document: a request without a
 * session cookie never queries sessions, and the guard answers before any handler runs.
 */
function appWithoutBackends() {
  const unused = new Proxy(
    {},
    {
      get: () => {
        throw new Error('a guarded route reached a backend');
      },
    },
  );
  const registry = { versions: unused, announceAccess: async () => {} } as unknown as DocumentRegistry;
  // With a backup token, as on a data folder: GET /api/backup wants that token, not a session.
  return createApp({ sql: unused as Sql, registry, allowedOrigins: ['http://ranch.test'], backupToken: 'the token' });
}

/** Each method and path the app routes under /api (middleware and the 404 fallback are `ALL`). */
function apiRoutes(app: ReturnType<typeof createApp>): string[] {
  const routes = app.routes.filter((route) => route.method !== 'ALL' && route.path.startsWith('/api/'));
  return [...new Set(routes.map((route) => `${route.method} ${route.path}`))].sort();
}

describe('[A1] every /api route but health, sign-in, sign-out, account links and the sync socket needs a session', () => {
  const app = appWithoutBackends();
  const routes = apiRoutes(app);

  it('finds the public routes among the routes, and many guarded ones', () => {
    for (const route of PUBLIC) expect(routes).toContain(route);
    expect(routes.length - PUBLIC.length).toBeGreaterThan(20);
  });

  it.each(routes.filter((route) => !PUBLIC.includes(route)))('%s answers 401 without a session', async (route) => {
    const [method, path] = route.split(' ') as [string, string];
    const url = path.replace(/:[A-Za-z]+/g, ID);
    const body = method === 'GET' || method === 'HEAD' ? undefined : '{}';
    const response = await app.request(url, {
      method,
      headers: { origin: 'http://ranch.test', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Unauthorized' });
  });

  it('answers 401 for an unknown /api path too, and serves sign-in and sign-out without one', async () => {
    expect((await app.request('/api/no-such-thing')).status).toBe(401);
    expect((await app.request('/api/login')).status).toBe(200);
    expect((await app.request('/api/logout')).status).toBe(200);
    expect((await app.request('/api/logout', { method: 'POST', headers: { origin: 'http://ranch.test' } })).status).toBe(204);
  });
});
