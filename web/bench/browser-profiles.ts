// Chromium with a profile of its own per phone or desk a bench drives (phone.ts, ab-starts.ts,
// ab-dialogs.ts, compare-styles.ts): each in a folder of its own, all closed and removed
// together, whatever the run ended with.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { CHROMIUM } from './chromium.ts';

/**
 * The benches' browsers, with V8 making each function's source positions as it compiles it.
 * Playwright drives every page through the inspector's `Runtime` domain, and while it is
 * enabled V8 captures a detailed stack trace (line and column of every frame) for each
 * `Error` constructed; a function compiled lazily has no source positions, so V8 parses it
 * again to make them, on the page's main thread: a module's or a CommonJS wrapper's whole
 * body (66–84 ms at CPU 4× for one of the app's chunks). A phone runs without an inspector
 * and never pays that (docs/performance.md "The host and the phone"). Made at compile
 * time they cost a little compile work instead. `BENCH_LAZY_POSITIONS=1` keeps V8's default,
 * to compare.
 */
const LAUNCH = {
  ...CHROMIUM,
  args: [...CHROMIUM.args, ...(process.env.BENCH_LAZY_POSITIONS === '1' ? [] : ['--js-flags=--no-enable-lazy-source-positions'])],
};

export type BrowserProfiles = {
  /** A new browser on a fresh profile (its folder named from `prefix`). */
  launch(options: BrowserContextOptions): Promise<BrowserContext>;
  /**
   * Closes `context` and launches its browser again on the same profile, as a phone starts the
   * app after the system closed it (phone-session.ts, inNewBrowser).
   */
  restart(context: BrowserContext): Promise<BrowserContext>;
  /** Closes every browser launched and removes its folder. */
  closeAll(): Promise<void>;
};

/** Browsers started as `executablePath`: Chromium, or the wrapper that confines it (confined-browser.ts). */
export function browserProfiles(prefix: string, executablePath = LAUNCH.executablePath): BrowserProfiles {
  const launch = { ...LAUNCH, executablePath };
  const opened: { dir: string; context: BrowserContext; options: BrowserContextOptions }[] = [];
  return {
    async launch(options) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      const context = await chromium.launchPersistentContext(dir, { ...launch, ...options });
      opened.push({ dir, context, options });
      return context;
    },
    async restart(context) {
      const entry = opened.find((each) => each.context === context);
      if (!entry) throw new Error('unreachable: a browser these profiles did not launch');
      await context.close();
      entry.context = await chromium.launchPersistentContext(entry.dir, { ...launch, ...entry.options });
      return entry.context;
    },
    async closeAll() {
      for (const { dir, context } of opened.splice(0)) {
        await context.close().catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The builds' turns in a round: in order on even rounds, reversed on odd ones, so neither always goes first. */
export function inTurn<T>(items: T[], round: number): T[] {
  return round % 2 === 0 ? items : [...items].reverse();
}
