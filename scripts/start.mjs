// `npm start`: builds the PWA when the build is missing or older than its sources, then
// runs the server (TypeScript through tsx) in this same process: one process serves the
// app, /api and the sync socket.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = join(root, 'dist', 'web', 'index.html');
const sources = ['web/src', 'web/index.html', 'shared', 'public', 'vite.config.ts', 'package-lock.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map((source) => newestMtime(join(root, source))));
if (!process.env.RANCH_WEB_DIR && builtAt < sourcesAt) {
  console.log(builtAt === 0 ? 'Building the app (first start)…' : 'Sources changed: rebuilding the app…');
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

process.chdir(root);
const { register } = await import('tsx/esm/api');
register();
await import(pathToFileURL(join(root, 'sync-server', 'src', 'main.ts')).href);
