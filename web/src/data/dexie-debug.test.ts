// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** Dexie as a fresh page meets it: both modules evaluated again, the environment as stubbed. */
async function dexieOnceTheReadDbIsLoaded() {
  vi.resetModules();
  await import('./db.ts');
  return (await import('dexie')).default;
}

describe("Dexie's debug mode", () => {
  it('is off in the built app even on localhost, where Dexie would turn it on', async () => {
    expect(location.hostname).toBe('localhost');
    vi.stubEnv('DEV', false);
    const Dexie = await dexieOnceTheReadDbIsLoaded();
    expect(Dexie.debug).toBe(false);
  });

  it('stays on in development', async () => {
    vi.stubEnv('DEV', true);
    const Dexie = await dexieOnceTheReadDbIsLoaded();
    expect(Dexie.debug).toBe(true);
  });
});
