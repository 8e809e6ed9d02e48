import WebSocket from 'ws';
import * as Y from 'yjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signIn, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { connectDevice, whenSynced, type Device } from './support/sync-client.ts';
import { collectionMap, DOC_NAME, newId, SYNC_PATH, writeEntity } from '../../shared/index.ts';
import { DEFAULT_SYNC_LIMITS } from '../src/sync/limits.ts';

const BREEDS = 3000;

/** The TCP socket under a provider's ws WebSocket (ws keeps it in `_socket`). */
function wire(device: Device): { socket: WebSocket; bytesRead: number } {
  const socket = device.provider.ws as unknown as WebSocket & { _socket: { bytesRead: number } };
  return { socket, bytesRead: socket._socket.bytesRead };
}

/**
 * A new device's first sync is the whole document; the server compresses such large
 * messages (permessage-deflate) for devices that offer it, and still serves those that do
 * not, or that offer it without window parameters (as some browsers do).
 */
describe.each(databaseKinds())('compressed sync of large messages (%s)', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  const devices: Device[] = [];
  let stateBytes = 0;

  function device(socket?: WebSocket.ClientOptions): Device {
    const created = connectDevice(server.url, admin.cookie, socket ? { socket } : {});
    devices.push(created);
    return created;
  }

  async function receivesEveryBreed(created: Device): Promise<void> {
    await whenSynced(created);
    await expect.poll(() => collectionMap(created.doc, 'breeds').size).toBe(BREEDS);
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    // One large update from a device that compresses what it sends: the server inflates it.
    const writer = device();
    await whenSynced(writer);
    writer.doc.transact(() => {
      for (let index = 0; index < BREEDS; index++) {
        writeEntity(writer.doc, 'breeds', newId(), { name: `Breed ${index} of line ${(index * 7919) % 1000}`, isActive: index % 3 !== 0 });
      }
    });
    await vi.waitFor(
      async () => {
        expect((await server.db.sql`select count(*)::int as n from breeds`)[0]?.n).toBe(BREEDS);
      },
      { timeout: 20_000, interval: 100 },
    );
    stateBytes = Y.encodeStateAsUpdate(writer.doc).byteLength;
  });
  afterEach(() => {
    devices.splice(0).forEach((d) => d.destroy());
  });
  afterAll(() => server.destroy());

  it('sends the whole document to a new device in a fraction of its size', async () => {
    const phone = device();
    await receivesEveryBreed(phone);
    const { socket, bytesRead } = wire(phone);
    expect(socket.extensions).toContain('permessage-deflate');
    expect(stateBytes).toBeGreaterThan(100_000);
    expect(bytesRead).toBeLessThan(stateBytes / 2);
  });

  it('serves a device that offers no compression, uncompressed', async () => {
    const plain = device({ perMessageDeflate: false });
    await receivesEveryBreed(plain);
    const { socket, bytesRead } = wire(plain);
    expect(socket.extensions).toBe('');
    expect(bytesRead).toBeGreaterThan(stateBytes);
  });

  it('accepts an offer without window parameters', async () => {
    // `false` (ws offers no client_max_window_bits then) is missing from ws's types.
    const bare = device({ perMessageDeflate: { clientMaxWindowBits: false as unknown as number } });
    await receivesEveryBreed(bare);
    const { socket, bytesRead } = wire(bare);
    expect(socket.extensions).toContain('permessage-deflate');
    expect(bytesRead).toBeLessThan(stateBytes / 2);
  });

  it('closes a socket whose compressed message inflates past the message cap (16 MiB, 1009) and keeps serving', async () => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}${SYNC_PATH}/${DOC_NAME}`, { headers: { cookie: admin.cookie } });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    expect(socket.extensions).toContain('permessage-deflate');
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    // 1 MiB more zeros than the cap: a few KiB on the wire, over the limit once inflated.
    socket.send(Buffer.alloc(DEFAULT_SYNC_LIMITS.maxMessageBytes + 1024 * 1024), { compress: true });
    expect(await closed).toBe(1009);
    const next = device();
    await receivesEveryBreed(next);
  });
});
