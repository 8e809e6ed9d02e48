import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { signIn, type ApiClient } from './support/client.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.ts';
import { ADMIN } from './support/server.ts';
import { connectAckedDevice, whenSynced } from './support/sync-client.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';
import { CloseCode, getEntity, newId, writeEntity } from '../../shared/index.ts';

/**
 * Postgres goes away under a running server (a TCP proxy in between is cut): writes are
 * refused, not dropped or acknowledged, and everything recovers by itself when it returns.
 */
describe.each(databaseKinds())('a Postgres outage (%s)', (kind) => {
  let proxy: TcpProxy;
  let server: RunningServer;
  let admin: ApiClient;
  let embedded: EmbeddedPostgres | undefined;
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    let target: URL;
    if (kind === 'pglite') {
      dataDir = mkdtempSync(join(tmpdir(), 'ranch-outage-'));
      embedded = await startEmbeddedPostgres(dataDir);
      // The embedded database has a unix socket only: the proxy gives it a TCP address to cut.
      target = new URL('postgres://postgres@127.0.0.1/postgres');
    } else {
      database = await createTestDatabase('postgres');
      target = new URL((database.options as { url: string }).url);
    }
    proxy = await startTcpProxy(embedded ? { path: embedded.socketPath } : { host: target.hostname, port: Number(target.port || 5432) });
    target.host = `127.0.0.1:${proxy.port}`;
    server = await startServer({
      database: { url: target.toString(), max: kind === 'pglite' ? 1 : 4 },
      port: 0,
      host: '127.0.0.1',
      admin: ADMIN,
    });
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });

  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await embedded?.stop();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('[X2] [Y9] refuses writes while the database is away and takes them once it is back', async () => {
    const device = connectAckedDevice(server.url, admin.cookie);
    try {
      await whenSynced(device);
      const closes: number[] = [];
      device.provider.on('connection-close', (event) => {
        if (event) closes.push(event.code);
      });

      proxy.cut();
      const id = newId();
      device.doc.transact(() => writeEntity(device.doc, 'breeds', id, { name: 'Written in the storm', isActive: true }));
      const written = device.localClock();
      // The server cannot persist: it drops its in-memory copy and asks devices to come back later.
      await expect.poll(() => closes).toContain(CloseCode.TryAgainLater);
      expect(device.ackedClock()).toBeLessThan(written);

      const rest = await admin.request('/api/colors', { method: 'POST', json: { name: 'Storm Grey' } });
      expect(rest.status).toBe(503);
      expect((await rest.json()).message).toMatch(/database cannot be reached/);

      proxy.restore();
      // The device reconnects by itself and resends; the change becomes durable and acknowledged.
      await expect.poll(() => device.ackedClock(), { timeout: 20_000 }).toBeGreaterThanOrEqual(written);
      const breeds = (await (await admin.request('/api/breeds')).json()) as { id: string; name: string }[];
      expect(breeds.find((breed) => breed.id === id)?.name).toBe('Written in the storm');
      expect(getEntity(device.doc, 'breeds', id)?.name).toBe('Written in the storm');
      const colors = (await (await admin.request('/api/colors')).json()) as unknown[];
      expect(colors).toEqual([]);
    } finally {
      device.destroy();
    }
  });
});
