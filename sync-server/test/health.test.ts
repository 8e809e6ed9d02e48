import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import type { Sql } from '../src/db/client.ts';
import type { DocumentRegistry } from '../src/sync/registry.ts';
import { databaseKinds } from './support/databases.ts';
import { startTestServer, type TestServer } from './support/server.ts';

describe.each(databaseKinds())('[X7] GET /api/health (%s)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('answers 200 without a session, from any origin, never cached', async () => {
    const response = await fetch(`${server.url}/api/health`, { headers: { origin: 'https://elsewhere.example' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

describe('[X7] GET /api/health without a database', () => {
  it('answers 503 and says so, without a stack', async () => {
    const sql = (() => Promise.reject(new Error('connection refused'))) as unknown as Sql;
    const registry = { versions: {}, announceAccess: async () => {} } as unknown as DocumentRegistry;
    const response = await createApp({ sql, registry, allowedOrigins: [] }).request('/api/health');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'unavailable', message: 'The database does not answer' });
  });
});
