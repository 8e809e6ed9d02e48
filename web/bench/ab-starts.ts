// Two builds' starts, alternating (`BENCH_ONLY=ab-starts`, `BENCH_AB_DIR=<the other build>`;
// docs/performance.md "Reproduce"). On a busy host a phone start's figures move as much
// between two runs of one build as between two builds, and the host's speed drifts within
// minutes, so builds are compared start by start in the same minutes: each build has its own
// server (one Postgres database) and its own phone (a fresh profile, CPU 4×, signed in and
// synced once), then each round starts both with the data on the device, the order swapped
// every round. A phone not starting shows a page that is not the app, so its workers stop
// meanwhile (`leaveApp`). With `BENCH_AB_KEY=<ms>` each start also types S in the search
// that long after its first row (while the list is read, at 2000) and reports how long the
// list took to follow.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { median } from '../../sync-server/bench/clients.ts';
import { ms, type Row } from '../../sync-server/bench/table.ts';
import { CHROMIUM } from './chromium.ts';
import {
  DEFAULT_RATE,
  leaveApp,
  openPhone,
  PHONE,
  pressKeyAfterFirstRow,
  probe,
  rounded,
  signInAndSync,
  start,
  waitFor,
  type Start,
  type Task,
} from './phone.ts';

type Build = { label: string; url: string };
/** A start, when the whole list was in (ms from the navigation), and the key's latency when one was typed. */
type Run = Start & { wholeList: number; keyLatency?: number };
type Phone = { build: Build; page: Page; tasks: Task[]; starts: Run[] };

export async function abStarts(
  builds: Build[],
  horses: number,
  log: (line: string) => void,
  { rounds, key }: { rounds: number; key?: number },
): Promise<Row[]> {
  const opened: { dir: string; context: BrowserContext }[] = [];
  const phones: Phone[] = [];
  try {
    for (const build of builds) {
      const dir = mkdtempSync(join(tmpdir(), 'ranch-bench-ab-'));
      const context = await chromium.launchPersistentContext(dir, { ...CHROMIUM, ...PHONE });
      opened.push({ dir, context });
      const { page, tasks } = await openPhone(context, DEFAULT_RATE, log);
      await signInAndSync(page, build.url);
      if (key !== undefined) await page.evaluate(() => sessionStorage.setItem('bench:focus-search', '1'));
      await leaveApp(page, build.url);
      phones.push({ build, page, tasks, starts: [] });
    }
    for (let round = 0; round < rounds; round++) {
      for (const phone of round % 2 === 0 ? phones : [...phones].reverse()) {
        const typing = key === undefined ? undefined : (page: Page, origin: number) => pressKeyAfterFirstRow(page, origin, key);
        const started = await start(phone.page, phone.build.url, phone.tasks, typing);
        const marks = await probe(phone.page);
        const keyLatency = key === undefined ? undefined : marks.shownAt! - marks.keyAt!;
        // A search shows its matches, not the list's length: the list is in once the start has settled.
        if (key === undefined) await waitFor(async () => (await probe(phone.page)).listSize >= horses, 120_000, 'the whole list');
        const run = { ...started, wholeList: key === undefined ? (await probe(phone.page)).listAt! : Number.NaN, keyLatency };
        await leaveApp(phone.page, phone.build.url);
        phone.starts.push(run);
        log(
          `  ab: ${phone.build.label}, start ${round + 1}: first row ${ms(run.firstRow)}, ${keyLatency === undefined ? `whole list ${ms(run.wholeList)}` : `key → list ${ms(keyLatency)}`}; first 10 s: ${run.window.count} long tasks, longest ${ms(run.window.longest)}, blocking ${ms(run.window.tbt)}`,
        );
      }
    }
  } finally {
    for (const { dir, context } of opened) {
      await context.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return phones.flatMap(({ build, starts }) => {
    const group = `Phone (CPU ${DEFAULT_RATE}×), builds alternating`;
    const of = (pick: (run: Run) => number) => median(starts.map(pick));
    return [
      {
        group,
        figure: `${build.label}: start, long tasks in the first 10 s (median)`,
        ours: String(of((run) => run.window.count)),
        note: `${starts.length} starts: ${rounded(starts, (run) => run.window.count)}`,
      },
      {
        group,
        figure: `${build.label}: start, longest task / blocking time, first 10 s (medians)`,
        ours: `${ms(of((run) => run.window.longest))} / ${ms(of((run) => run.window.tbt))}`,
        note: `longest ${rounded(starts, (run) => run.window.longest)} ms; blocking ${rounded(starts, (run) => run.window.tbt)} ms`,
      },
      key === undefined
        ? {
            group,
            figure: `${build.label}: start, first horse row / whole list (medians)`,
            ours: `${ms(of((run) => run.firstRow))} / ${ms(of((run) => run.wholeList))}`,
            note: `first row ${rounded(starts, (run) => run.firstRow)} ms; whole list ${rounded(starts, (run) => run.wholeList)} ms`,
          }
        : {
            group,
            figure: `${build.label}: start, first horse row / S typed ${key} ms after it → list (medians)`,
            ours: `${ms(of((run) => run.firstRow))} / ${ms(of((run) => run.keyLatency!))}`,
            note: `first row ${rounded(starts, (run) => run.firstRow)} ms; key → list ${rounded(starts, (run) => run.keyLatency!)} ms`,
          },
    ];
  });
}
