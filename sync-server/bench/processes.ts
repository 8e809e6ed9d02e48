import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestDatabase } from '../test/support/databases.ts';
import { type NamedPerson, publicName } from '../../shared/public-name.ts';
import type { Recorder } from './ranch-seed.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BENCH_ADMIN = { email: 'bench@ranch.test', password: 'bench password' };

export type Child = {
  url: string;
  pid: number;
  /** Resident memory of the process (bytes), from /proc. */
  rss(): number;
  stop(): Promise<void>;
};

/** Resident set size of a process in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

function start(args: string[], env: NodeJS.ProcessEnv): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolvePromise, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`No 'listening' within 60 s:\n${output}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolvePromise(handle(child, match[1]));
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`Process exited (${code ?? signal}):\n${output}`));
    });
  });
}

function handle(child: ChildProcess, url: string): Child {
  return {
    url,
    pid: child.pid!,
    rss: () => rssOf(child.pid!),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Our server (sync-server/bench/server-entry.ts) on the database, in its own process. */
export function startOurServer(
  database: TestDatabase,
  options: { compactEvery?: number; webDir?: string; productionLimits?: boolean } = {},
): Promise<Child> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RANCH_ADMIN_EMAIL: BENCH_ADMIN.email,
    RANCH_ADMIN_PASSWORD: BENCH_ADMIN.password,
    RANCH_BENCH_COMPACT_EVERY: String(options.compactEvery ?? 500),
  };
  if (options.productionLimits) env.RANCH_BENCH_PRODUCTION_LIMITS = '1';
  if (options.webDir) env.RANCH_WEB_DIR = options.webDir;
  if ('url' in database.options) env.DATABASE_URL = database.options.url;
  else {
    delete env.DATABASE_URL;
    env.RANCH_DATA_DIR = database.options.dataDir;
  }
  return start(['--import', 'tsx', join(ROOT, 'sync-server/bench/server-entry.ts')], env);
}

/** The reference @y/websocket-server, in memory, in its own process. */
export function startReferenceServer(): Promise<Child> {
  return start([join(ROOT, 'sync-server/bench/reference-server.mjs')], { ...process.env });
}

/** Plain node:http serving `file` with `headers` to every request (the REST peer). */
export function startBytesServer(file: string, headers: Record<string, string>): Promise<Child> {
  return start([join(ROOT, 'sync-server/bench/bytes-server.mjs')], {
    ...process.env,
    BENCH_BYTES_FILE: file,
    BENCH_BYTES_HEADERS: JSON.stringify(headers),
  });
}

/** Runs a load script (tsx) in its own process and returns the JSON it prints last. */
export function runLoad<T>(script: string, input: unknown, timeoutMs: number): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'sync-server/bench', script)], {
    cwd: ROOT,
    env: { ...process.env, BENCH_INPUT: JSON.stringify(input) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolvePromise, reject) => {
    let output = '';
    let errors = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const last = output.trim().split('\n').at(-1) ?? '';
      try {
        resolvePromise(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${script} failed (${code ?? signal}):\n${output}\n${errors}`));
      }
    });
  });
}

/** Signs in with the form; returns the session cookie. */
export async function sessionCookie(url: string): Promise<string> {
  const response = await fetch(`${url}/api/login`, { method: 'POST', body: new URLSearchParams(BENCH_ADMIN), redirect: 'manual' });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (!cookie) throw new Error(`Sign-in failed: ${response.status}`);
  return cookie;
}

/** The signed-in user as the server names them on what they record ([K1], [T1]). */
export async function recorderOf(url: string, cookie: string): Promise<Recorder> {
  const response = await fetch(`${url}/api/auth/user`, { headers: { cookie } });
  if (!response.ok) throw new Error(`GET /api/auth/user: ${response.status}`);
  const user = (await response.json()) as NamedPerson & { id: string };
  return { id: user.id, name: publicName(user) };
}

/** Starts a load script that prints "ready" once its load is in place and holds it until stopped. */
export function startHeldLoad(script: string, input: unknown, timeoutMs: number): Promise<{ stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'sync-server/bench', script)], {
    cwd: ROOT,
    env: { ...process.env, BENCH_INPUT: JSON.stringify(input) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolvePromise, reject) => {
    let output = '';
    const timer = setTimeout(() => void stop().then(() => reject(new Error(`${script}: not ready in time\n${output}`))), timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) {
        clearTimeout(timer);
        resolvePromise({ stop });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code ?? signal}):\n${output}`));
    });
  });
}
