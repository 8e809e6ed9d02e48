// `npm run bench`: the benchmark suite (sync-server/bench, web/bench). Uses DATABASE_URL
// when set; otherwise the machine's Postgres at 127.0.0.1:5432 when it answers (what a
// ranch with several office machines runs); otherwise embedded PGlite. Builds the app
// first when the build is older than its sources and the run serves the app (the ranch
// phase and the Chromium figures; `BENCH_ONLY=fanout` leaves dist/web alone).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test';

function answers(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const env = { ...process.env };
if (env.DATABASE_URL) console.log(`Database: DATABASE_URL (${new URL(env.DATABASE_URL).host})`);
else if (await answers('127.0.0.1', 5432)) {
  env.DATABASE_URL = DEFAULT_URL;
  console.log(`Database: the machine's Postgres answers on 127.0.0.1:5432; using ${DEFAULT_URL} (set DATABASE_URL to choose)`);
} else console.log('Database: no Postgres on 127.0.0.1:5432 and no DATABASE_URL; using embedded PGlite');

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stats.mtimeMs);
}
const builtIndex = join(root, 'dist', 'web', 'index.html');
const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
const sources = ['web/src', 'web/index.html', 'shared', 'public', 'vite.config.ts', 'package-lock.json'];
const servesApp = !env.BENCH_ONLY || /\b(ranch|browser|phone)/.test(env.BENCH_ONLY);
if (servesApp && builtAt < Math.max(...sources.map((source) => newestMtime(join(root, source))))) {
  console.log('Building the app for the browser figures…');
  const build = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'sync-server', 'bench', 'main.ts')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
