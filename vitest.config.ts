import { defineConfig } from 'vitest/config';

/**
 * Three projects: `unit` (shared code and the PWA's data layer in jsdom with
 * fake-indexeddb, and the benches' own helpers), `server` (the Hono app in process against
 * PGlite, and against real Postgres when DATABASE_URL is set) and `e2e` (the built app in
 * Debian's Chromium).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'web/test/**/*.test.{ts,tsx}', 'web/bench/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['web/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['sync-server/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['web/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
