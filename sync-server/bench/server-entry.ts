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
});
console.log(`listening on ${server.url}`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
