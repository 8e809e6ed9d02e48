// Our server as `npm start` runs it (startServer), in a process of its own, with the
// snapshot interval the benchmark needs (RANCH_BENCH_COMPACT_EVERY; default 500).
import { startServer } from '../src/server.ts';

const compactEvery = Number(process.env.RANCH_BENCH_COMPACT_EVERY ?? 500);
const server = await startServer({
  database: process.env.DATABASE_URL ? { url: process.env.DATABASE_URL } : { embedded: true, dataDir: process.env.RANCH_DATA_DIR },
  port: 0,
  host: '127.0.0.1',
  admin: { email: process.env.RANCH_ADMIN_EMAIL ?? 'bench@ranch.test', password: process.env.RANCH_ADMIN_PASSWORD ?? 'bench password' },
  ...(process.env.RANCH_WEB_DIR ? { webDir: process.env.RANCH_WEB_DIR } : {}),
  compactEvery,
  // The loads are synthetic clients on one session (500 idle sockets, a writer bursting 500
  // edits at once, 10,000 edits as fast as acknowledged): lift the per-connection rate and
  // connection caps meant for abusive devices, so the figures measure throughput. The
  // limiter still runs; the send-buffer and message caps stay as in production.
  // RANCH_BENCH_PRODUCTION_LIMITS=1 keeps every limit as shipped (the flood figures).
  ...(process.env.RANCH_BENCH_PRODUCTION_LIMITS === '1'
    ? {}
    : {
        syncLimits: {
          messagesPerSecond: 1_000_000,
          updatesPerSecond: 1_000_000,
          connectionsPerSession: 100_000,
          connectionsPerUser: 100_000,
        },
      }),
});
console.log(`listening on ${server.url}`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
