import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handleError } from '../src/http/errors.ts';

afterEach(() => vi.restoreAllMocks());

describe('[I3] what an unexpected error writes to the log', () => {
  it('names the request, but never an upload URL’s token', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const app = new Hono();
    app.onError(handleError);
    app.put('/api/objects/upload/:token', () => {
      throw new Error('storage broke');
    });
    app.get('/api/horses', () => {
      throw new Error('storage broke');
    });
    const token = 'b7c0d9e2f4a14c6e8b1d3f5a7c9e1b3d';
    expect((await app.request(`/api/objects/upload/${token}`, { method: 'PUT' })).status).toBe(500);
    expect((await app.request('/api/horses')).status).toBe(500);
    const lines = logged.mock.calls.map((call) => call.map(String).join(' '));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('PUT /api/objects/upload/<token>');
    expect(lines.join('\n')).not.toContain(token);
    expect(lines[1]).toContain('GET /api/horses');
  });
});

describe('[A14] the setup address in the error log', () => {
  it('is written without its token', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const app = new Hono();
    app.onError(handleError);
    app.get('/api/setup/:token', () => {
      throw new Error('database broke');
    });
    const token = 'abcdefghijklmnopqrstuvwxyz234567';
    expect((await app.request(`/api/setup/${token}`)).status).toBe(500);
    const lines = logged.mock.calls.map((call) => call.map(String).join(' '));
    expect(lines[0]).toContain('GET /api/setup/<token>');
    expect(lines.join('\n')).not.toContain(token);
  });
});
