import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The test projects (docs/contributing.md "Tests"). A new test file needs no registering:
 * the globs below pick it up by its folder.
 *
 * - `unit`: `shared/` and the PWA's modules that need no browser global, in Node, with
 *   fake-indexeddb for IndexedDB.
 * - `dom`: the unit files that need a DOM (components, `localStorage`, window events). Such a
 *   file says so in its first lines, `// @vitest-environment jsdom`; that line alone moves it
 *   here, and vitest then runs it in jsdom whichever way it is started.
 * - `server`: the server in process or as a process, on PGlite, and on Postgres too when
 *   DATABASE_URL is set. `server-units`: its files that need no database (the memory store,
 *   pure functions), listed in SERVER_UNITS; they run in the quick tier too.
 * - `e2e`: the built app in Chromium. Each file starts its own server (port 0, its own data
 *   folder or database) and its own browser, so files run side by side (two at a time on two
 *   cores), after the other projects, whose CPU-bound files would slow the browsers.
 *
 * `npm run test:quick` runs `unit` and `server-units`; `npm test` every project.
 */
/**
 * Vitest's default, one worker less than the cores, leaves one of two cores idle while the
 * other runs every file; the main process mostly waits once the files are transformed.
 */
const WORKERS = Math.max(2, availableParallelism() - 1);
/** A browser test runs a server, PGlite and Chromium besides its worker. */
const BROWSER_WORKERS = Math.max(2, Math.floor(availableParallelism() / 2));

const UNIT_GLOBS = ['shared/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'web/test/**/*.test.{ts,tsx}', 'web/bench/**/*.test.ts'];
const UNIT_FOLDERS = ['shared', 'web/src', 'web/test', 'web/bench'];
const DOM_MARK = /^(\/\/[^\n]*\n|\s*\n)*\/\/ @vitest-environment jsdom\b/;

const SERVER_UNITS = [
  'sync-server/test/api-guard.test.ts',
  'sync-server/test/client-address.test.ts',
  'sync-server/test/compensation.test.ts',
  'sync-server/test/document-host.test.ts',
  'sync-server/test/env.test.ts',
  'sync-server/test/layout-guard.test.ts',
  'sync-server/test/references.test.ts',
  'sync-server/test/state-answers.test.ts',
  'sync-server/test/update-guard.test.ts',
];
/** The migrated, empty databases each test database starts as a copy of (the projects that open databases). */
const DATABASE_TEMPLATES = 'sync-server/test/support/database-templates.ts';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const gone = SERVER_UNITS.filter((file) => !existsSync(join(ROOT, file)));
if (gone.length > 0) throw new Error(`vitest.config.ts: SERVER_UNITS names files that do not exist: ${gone.join(', ')}`);

/** The unit test files whose first lines ask for jsdom. */
const domFiles = UNIT_FOLDERS.flatMap((folder) =>
  existsSync(join(ROOT, folder))
    ? readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.test\.tsx?$/.test(file))
        .map((file) => `${folder}/${file}`)
        .filter((file) => DOM_MARK.test(readFileSync(join(ROOT, file), 'utf8').slice(0, 1000)))
    : [],
);

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT_GLOBS,
          exclude: ['**/node_modules/**', ...domFiles],
          environment: 'node',
          setupFiles: ['web/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'dom',
          include: domFiles,
          environment: 'jsdom',
          setupFiles: ['web/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'server-units',
          include: SERVER_UNITS,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['sync-server/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...SERVER_UNITS],
          environment: 'node',
          globalSetup: [DATABASE_TEMPLATES],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['web/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: [DATABASE_TEMPLATES],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          maxWorkers: BROWSER_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
