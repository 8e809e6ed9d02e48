import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { TestDatabase } from './databases.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

export type ServerProcess = {
  url: string;
  /** The spawned process's pid (with `wrapper`, the wrapper's). */
  pid: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Ends the process with `signal` and waits for it to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** How it exited: its exit code, or the signal that ended it; null while it runs. */
  exit(): number | NodeJS.Signals | null;
};

/**
 * The product as a user runs it, `node scripts/start.mjs`, in a process of its own: on
 * embedded PGlite in the test database's folder, or on the test database's Postgres.
 * `wrapper` runs it through a command first (`unshare --pid --fork …`).
 */
export async function spawnServer(
  database: TestDatabase,
  env: Record<string, string> = {},
  wrapper: string[] = [],
): Promise<ServerProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env };
  childEnv.RANCH_WEB_DIR ??= join(ROOT, 'dist', 'web');
  if ('url' in database.options) childEnv.DATABASE_URL = database.options.url;
  else {
    delete childEnv.DATABASE_URL;
    if (database.options.dataDir) childEnv.RANCH_DATA_DIR = database.options.dataDir;
  }
  const command = [...wrapper, process.execPath, join(ROOT, 'scripts', 'start.mjs')];
  const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await listeningUrl(child);
  return {
    url,
    pid: child.pid!,
    output: () => output,
    exit: () => child.exitCode ?? child.signalCode,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill(signal);
      await exited;
    },
  };
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match?.[1]) resolvePromise(match[1]);
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => reject(new Error(`Server exited (${code ?? signal}):\n${output}`)));
  });
}
