// A Chromium trace of the page over part of a bench run (BENCH_TRACE_WRITE=<file>): written
// as JSON (open it in Chromium's DevTools, Performance panel, or ui.perfetto.dev). Where a
// CPU profile (cpu-profile.ts) shows what ran, a trace also shows when: the main thread's
// tasks, style and layout, resource loads and the page's own performance marks.
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const ASKED = process.env.BENCH_TRACE_CATEGORIES?.split(',').filter(Boolean) ?? [];
/**
 * `BENCH_TRACE_CATEGORIES` adds more, comma-separated (e.g. `IndexedDB,toplevel,ipc`: what a
 * task with no timeline events ran); with `BENCH_TRACE_ONLY=1` they are the only ones: a
 * lighter trace, e.g. `toplevel,v8,disabled-by-default-v8.compile` for where a start compiles.
 */
const CATEGORIES = [
  ...(process.env.BENCH_TRACE_ONLY === '1'
    ? []
    : ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'loading', 'v8.execute']),
  ...ASKED,
];

/** Pages traced now: Chromium traces once at a time (main-thread-tasks.ts asks). */
const traced = new WeakSet<Page>();
export const isTraced = (page: Page): boolean => traced.has(page);

/**
 * Runs `run` with the page traced in `categories`; `done` gets the trace's events however
 * `run` ends (a failed run's trace says why).
 */
export async function recordTrace<T>(
  page: Page,
  categories: string[],
  run: () => Promise<T>,
  done: (events: unknown[]) => void,
): Promise<T> {
  const cdp = await page.context().newCDPSession(page);
  const events: unknown[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: categories }, transferMode: 'ReportEvents' });
  traced.add(page);
  try {
    return await run();
  } finally {
    traced.delete(page);
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
    done(events);
  }
}

/** Runs `run` with the page traced, then writes the trace's events to `file`. */
export function tracePage<T>(page: Page, file: string, log: (line: string) => void, run: () => Promise<T>): Promise<T> {
  return recordTrace(page, CATEGORIES, run, (events) => {
    writeFileSync(file, JSON.stringify({ traceEvents: events }));
    log(`  trace: ${events.length} events written to ${file}`);
  });
}
