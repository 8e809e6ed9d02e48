import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWeb } from '../src/http/static.ts';
import { signIn, type ApiClient } from './support/client.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';

/** A malformed `%` escape is the client's mistake: a 4xx, never a 500 with a stack trace in the log. */
describe('[X2] malformed paths', () => {
  const webDir = mkdtempSync(join(tmpdir(), 'ranch-web-'));
  const web = new Hono().use('*', serveWeb(webDir));
  let server: TestServer;
  let admin: ApiClient;

  beforeAll(async () => {
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Ranch</title>');
    server = await startTestServer('pglite');
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    rmSync(webDir, { recursive: true, force: true });
    await server?.destroy();
  });

  it('the app shell answers 400 to a malformed escape, and still serves its screens', async () => {
    for (const path of ['/%ff', '/horses/%E0%A4%A', '/%']) {
      const response = await web.request(path);
      expect(response.status, path).toBe(400);
      expect(await response.text()).toBe('Malformed path');
    }
    const screen = await web.request('/horses');
    expect(screen.status).toBe(200);
    expect(await screen.text()).toContain('<title>Ranch</title>');
  });

  it('the API answers a malformed id in its path with a 4xx', async () => {
    for (const [method, path] of [
      ['GET', '/api/horses/%ff'],
      ['PUT', '/api/horses/%ff'],
      ['DELETE', '/api/owners/%E0%A4%A'],
      ['PATCH', '/api/users/%ff'],
    ] as const) {
      const response = await admin.request(path, { method, json: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(response.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
    }
  });
});
