import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type ApiClient } from './support/client.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';

/** Every answer — the app shell, the service worker, an asset, the API, an error — carries the security headers. */
describe('[X2] security headers on every answer', () => {
  const webDir = mkdtempSync(join(tmpdir(), 'ranch-web-'));
  let server: TestServer;
  let admin: ApiClient;

  beforeAll(async () => {
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Ranch</title>');
    writeFileSync(join(webDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    server = await startTestServer('pglite', { webDir });
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await server?.destroy();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('CSP with no inline script and no framing, Referrer-Policy, nosniff', async () => {
    const answers = {
      'the app shell': await fetch(`${server.url}/horses`),
      'the service worker': await fetch(`${server.url}/sw.js`),
      'an API read': await admin.request('/api/horses'),
      'an API error (401)': await fetch(`${server.url}/api/horses`),
      'an unknown API path (404)': await admin.request('/api/nothing-here'),
    };
    for (const [what, response] of Object.entries(answers)) {
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, what).toContain("script-src 'self'");
      expect(csp, what).not.toContain('unsafe-inline');
      expect(csp, what).not.toContain('unsafe-eval');
      expect(csp, what).toContain("frame-ancestors 'none'");
      expect(csp, what).toContain("object-src 'none'");
      expect(response.headers.get('x-frame-options'), what).toBe('DENY');
      expect(response.headers.get('referrer-policy'), what).toBe('same-origin');
      expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
    }
    expect(answers['the app shell'].status).toBe(200);
    expect(answers['an API error (401)'].status).toBe(401);
  });
});
