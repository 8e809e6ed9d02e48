import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startAppServer, type AppServer } from './app-server.ts';
import { launchChromium } from './browser.ts';

/** A file's running app: its server, Chromium, and what the file's seed made. */
export type AppInBrowser<Seed> = { server: AppServer; browser: Browser; seed: Seed };

/**
 * Registers the hooks most browser files share: before the file's tests, the app's server
 * and Chromium start and `seed` fills the ranch; after them both stop. The fields are set
 * once the hooks have run, so tests read them, not the file's top level.
 */
export function appInBrowser<Seed = void>(seed: (server: AppServer) => Promise<Seed>): AppInBrowser<Seed> {
  const app = {} as AppInBrowser<Seed>;
  beforeAll(async () => {
    app.server = await startAppServer();
    app.browser = await launchChromium();
    app.seed = await seed(app.server);
  });
  afterAll(async () => {
    await app.browser?.close();
    await app.server?.stop();
  });
  return app;
}
