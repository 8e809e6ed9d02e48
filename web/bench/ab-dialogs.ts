// Two builds' dialogs, alternating (`BENCH_ONLY=ab-dialogs`, `BENCH_AB_DIR=<the other build>`;
// docs/performance.md "Tools for a closer look"): on a phone (CPU 4×) whose start has settled on Horses,
// Add Horse tapped, the dialog shown, Cancel, the dialog gone; each open and close traced.
// A modal dialog makes the rest of the page inert, so Chromium restyles every element of
// the screen as it opens and as it closes (docs/web.md "Dialogs that open at once"):
// what each element's style costs shows here, apart from a start's noise. Made to compare
// stylesheets; `BENCH_AB_SELECTORS=1` also lists the selectors that cost the most
// (Chromium's selector statistics, which slow the restyle they measure).
import type { CDPSession, Page } from 'playwright-core';
import { median } from '../../sync-server/bench/clients.ts';
import { ms, type Row } from '../../sync-server/bench/table.ts';
import { traceEvents, twoFrames } from '../e2e/support/restyles.ts';
import { browserProfiles, inTurn } from './browser-profiles.ts';
import { probe, waitFor } from './phone-probe.ts';
import { DEFAULT_RATE, leaveApp, openPhone, type Pace, PHONE, signInAndSync } from './phone-session.ts';
import { rounded, settle } from './phone-start.ts';

type Build = { label: string; url: string };
type TraceEvent = {
  name: string;
  ph: string;
  dur?: number;
  pid: number;
  tid: number;
  args?: {
    elementCount?: number;
    beginData?: { frame?: string };
    selector_stats?: { selector_timings?: SelectorTiming[] };
  };
};
type SelectorTiming = { selector: string; 'elapsed (us)': number; match_attempts: number; match_count: number };
/** One open and close: the main thread's style and layout (ms), elements restyled, the longest task. */
type Run = { style: number; layout: number; elements: number; longest: number; passes: number[] };
type Phone = { build: Build; page: Page; pace: Pace; cdp: CDPSession; frame: string; runs: Run[]; selectors: Map<string, SelectorTiming> };

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];
const SELECTOR_STATS = 'disabled-by-default-blink.debug';

/** Add Horse opened and cancelled once on `phone`, traced. */
async function openAndClose(phone: Phone, selectors: boolean): Promise<Run> {
  const { page } = phone;
  const dialog = page.getByRole('dialog', { name: 'Add New Horse' });
  const events = await traceEvents<TraceEvent>(phone.cdp, selectors ? [...CATEGORIES, SELECTOR_STATS] : CATEGORIES, async () => {
    await page.getByRole('button', { name: 'Add Horse' }).first().click();
    await dialog.getByRole('button', { name: 'Cancel' }).waitFor();
    await twoFrames(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await twoFrames(page);
  });
  const styles = events.filter((event) => event.name === 'UpdateLayoutTree' && event.args?.beginData?.frame === phone.frame);
  const main = styles[0];
  const onMain = events.filter((event) => main !== undefined && event.ph === 'X' && event.pid === main.pid && event.tid === main.tid);
  const durations = (name: string) => onMain.filter((event) => event.name === name).map((event) => (event.dur ?? 0) / 1000);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  addSelectorStats(phone.selectors, events);
  return {
    style: sum(durations('UpdateLayoutTree')),
    layout: sum(durations('Layout')),
    elements: sum(styles.map((event) => event.args?.elementCount ?? 0)),
    passes: styles.map((event) => event.args?.elementCount ?? 0).filter((count) => count >= 20),
    longest: Math.max(0, ...durations('RunTask')),
  };
}

/** Adds the trace's selector statistics (BENCH_AB_SELECTORS=1) to `seen`, selector by selector. */
function addSelectorStats(seen: Map<string, SelectorTiming>, events: TraceEvent[]): void {
  for (const event of events) {
    for (const timing of event.name === 'SelectorStats' ? (event.args?.selector_stats?.selector_timings ?? []) : []) {
      const total = seen.get(timing.selector) ?? { selector: timing.selector, 'elapsed (us)': 0, match_attempts: 0, match_count: 0 };
      total['elapsed (us)'] += timing['elapsed (us)'];
      total.match_attempts += timing.match_attempts;
      total.match_count += timing.match_count;
      seen.set(timing.selector, total);
    }
  }
}

export async function abDialogs(
  builds: Build[],
  horses: number,
  log: (line: string) => void,
  { rounds, selectors }: { rounds: number; selectors: boolean },
): Promise<Row[]> {
  const profiles = browserProfiles('ranch-bench-dialogs-');
  const phones: Phone[] = [];
  try {
    for (const build of builds) {
      const context = await profiles.launch(PHONE);
      const { page, pace } = await openPhone(context, DEFAULT_RATE, log);
      await signInAndSync(page, build.url);
      await leaveApp(page, build.url);
      await page.goto(`${build.url}/horses`);
      await waitFor(async () => (await probe(page)).firstRow !== null, 120_000, 'the first row');
      await settle(page);
      await waitFor(async () => (await probe(page)).listSize >= horses, 120_000, 'the whole list');
      const cdp = await context.newCDPSession(page);
      const { frameTree } = await cdp.send('Page.getFrameTree');
      // Idle at 1× while the other phone measures: a throttled page spins (phone-session.ts, Pace).
      await pace(1);
      phones.push({ build, page, pace, cdp, frame: frameTree.frame.id, runs: [], selectors: new Map() });
    }
    for (let round = 0; round < rounds; round++) {
      for (const phone of inTurn(phones, round)) {
        await phone.pace(DEFAULT_RATE);
        const run = await openAndClose(phone, selectors);
        await phone.pace(1);
        phone.runs.push(run);
        log(
          `  dialogs: ${phone.build.label}, round ${round + 1}: style ${ms(run.style)} (${run.elements} elements), layout ${ms(run.layout)}, longest task ${ms(run.longest)}; passes of 20 elements or more: ${run.passes.join(', ')}`,
        );
      }
    }
  } finally {
    await profiles.closeAll();
  }
  for (const phone of phones.filter(() => selectors)) {
    const all = [...phone.selectors.values()];
    const total = all.reduce((sum, timing) => sum + timing['elapsed (us)'], 0);
    const top = all.sort((a, b) => b['elapsed (us)'] - a['elapsed (us)']).slice(0, 25);
    log(`  dialogs: ${phone.build.label}, ${all.length} selectors tried, ${Math.round(total / 1000)} ms in all`);
    log(`  dialogs: ${phone.build.label}, the selectors that cost the most (µs over every round; attempts / matches):`);
    for (const timing of top)
      log(
        `    ${Math.round(timing['elapsed (us)'])} µs  ${timing.match_attempts} / ${timing.match_count}  ${timing.selector.slice(0, 140)}`,
      );
  }
  return phones.flatMap(({ build, runs }) => {
    const group = `Phone (CPU ${DEFAULT_RATE}×), Add Horse opened and closed, builds alternating`;
    const of = (pick: (run: Run) => number) => median(runs.map(pick));
    return [
      {
        group,
        figure: `${build.label}: style recalculation / layout, open and close (medians)`,
        ours: `${ms(of((run) => run.style))} / ${ms(of((run) => run.layout))}`,
        note: `${runs.length} rounds; style ${rounded(runs, (run) => run.style)} ms; layout ${rounded(runs, (run) => run.layout)} ms; elements restyled ${rounded(runs, (run) => run.elements)}`,
      },
      {
        group,
        figure: `${build.label}: longest task, open and close (median)`,
        ours: ms(of((run) => run.longest)),
        note: rounded(runs, (run) => run.longest),
      },
    ];
  });
}
