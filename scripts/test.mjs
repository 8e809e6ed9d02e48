// `npm test`, what CI runs (docs/contributing.md): Biome, then the type check alongside the
// build and every test project. The type check is one process on one core that needs nothing
// the tests make, so it runs beside them rather than before them; a type error still fails the
// run as soon as it is found, and stops the tests. Arguments go to `vitest run`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const bin = (name) => join(import.meta.dirname, '..', 'node_modules', '.bin', name);

/** Runs a command; `capture` keeps its output instead of showing it. */
function run(args, { capture = false } = {}) {
  const child = spawn(args[0], args.slice(1), { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const done = new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.once('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
  return { child, done };
}

// The same commands as `npm run lint` and `npm run typecheck`.
const lint = await run([bin('biome'), 'check', '.']).done;
if (lint.code !== 0) process.exit(lint.code);

const typecheck = run([bin('tsc'), '-b', 'tsconfig.tests.json'], { capture: true });
let tests;
let typeFailed = false;
const typeCode = typecheck.done.then((result) => {
  if (result.code === 0) return 0;
  typeFailed = true;
  process.stderr.write(`\nThe type check failed (npm run typecheck):\n${result.output}`);
  tests?.child.kill('SIGTERM');
  return result.code;
});

const build = await run([bin('vite'), 'build', '--logLevel', 'warn']).done;
if (build.code !== 0) {
  typecheck.child.kill('SIGTERM');
  process.exit(build.code);
}
if (typeFailed) process.exit(await typeCode);
tests = run([bin('vitest'), 'run', ...process.argv.slice(2)]);
const [testsCode, typesCode] = await Promise.all([tests.done.then((result) => result.code), typeCode]);
process.exit(typesCode || testsCode);
