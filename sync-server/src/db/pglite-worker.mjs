// Runs PGlite (Postgres in WASM) on its own thread and exposes it over the Postgres wire
// protocol on a unix socket (workerData.socketPath, in a 0700 folder: PGlite checks no
// password, so no TCP port is opened; embedded.ts), so the server talks to it with
// postgres.js exactly as it talks to a real Postgres. On the main thread PGlite would block the event loop for every query.
// Plain .mjs because worker threads cannot load .ts files through tsx on Node 20.
import { chmodSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const db = await PGlite.create(workerData.dataDir ?? 'memory://');
const server = new PGLiteSocketServer({ db, path: workerData.socketPath, maxConnections: 1 });
await server.start();
if (process.platform !== 'win32') chmodSync(workerData.socketPath, 0o600);
parentPort.postMessage({ type: 'ready' });

parentPort.on('message', async (message) => {
  if (message?.type !== 'stop') return;
  await server.stop();
  await db.close();
  parentPort.postMessage({ type: 'stopped' });
});
