import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');

export type NpmRunResult = { code: number | null; output: string };

/**
 * `npm run <script> -- …args` as a user types it in the repository, with `env` over this
 * process's environment (a value of `undefined` removes the variable): the real command,
 * through package.json, so a broken script cannot pass unseen.
 */
export function npmRun(script: string, args: string[] = [], env: Record<string, string | undefined> = {}): Promise<NpmRunResult> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  const child = spawn('npm', ['run', '--silent', script, ...(args.length > 0 ? ['--', ...args] : [])], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done({ code, output }));
  });
}
