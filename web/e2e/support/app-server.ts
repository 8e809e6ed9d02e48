import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../../../sync-server/test/support/databases.ts';

export const ADMIN = { email: 'admin@ranch.test', password: 'paddock password' };
const ROOT = resolve(import.meta.dirname, '../../..');

export type AppServer = { url: string; database: TestDatabase; stop(): Promise<void> };

/**
 * The product as a user runs it: `node scripts/start.mjs` in its own process, serving the
 * built app from dist/web, on PGlite, or on a fresh database of DATABASE_URL's Postgres.
 */
export async function startAppServer(): Promise<AppServer> {
  const database = await createTestDatabase(process.env.DATABASE_URL ? 'postgres' : 'pglite');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    RANCH_WEB_DIR: join(ROOT, 'dist', 'web'),
    RANCH_ADMIN_EMAIL: ADMIN.email,
    RANCH_ADMIN_PASSWORD: ADMIN.password,
  };
  if ('url' in database.options) env.DATABASE_URL = database.options.url;
  else {
    delete env.DATABASE_URL;
    if (database.options.dataDir) env.RANCH_DATA_DIR = database.options.dataDir;
  }
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await listeningUrl(child);
  return {
    url,
    database,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      await database.drop();
    },
  };
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match?.[1]) resolvePromise(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`Server exited with ${code}:\n${output}`)));
  });
}
