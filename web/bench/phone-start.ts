// A start of the app on the phone (phone.ts): a navigation to the horse list with the data on
// the device, what is done meanwhile, and the long tasks counted from the navigation.
import type { Page } from 'playwright-core';
import { sleep } from '../../sync-server/bench/clients.ts';
import { ms } from '../../sync-server/bench/table.ts';
import { profileMainThread } from './cpu-profile.ts';
import { addUnseen, inTrace, isCollectorTask, onTheCpu, withMainThreadTasks } from './main-thread-tasks.ts';
import { type AppWindow, type Frame, pageNow, probe, waitFor } from './phone-probe.ts';
import { tracePage } from './trace.ts';

/** Issue 12's window for the total blocking time of a start. */
const WINDOW = 10_000;

export type Task = { start: number; duration: number };

/**
 * The tasks over 50 ms in [from, to) (epoch ms): the longest and when it began (ms after
 * `from`; a task of the page being left, as the navigation unloads it, begins at ~0), and the
 * blocking time inside the window.
 */
export function blocking(tasks: Task[], from: number, to: number): { longest: number; longestAt: number; tbt: number; count: number } {
  const inside = within(tasks, from, to);
  const tbt = inside.reduce(
    (sum, task) => sum + Math.max(0, Math.min(task.start + task.duration, to) - Math.max(task.start, from) - 50),
    0,
  );
  const longest = inside.reduce<Task | undefined>((worst, task) => (worst && worst.duration >= task.duration ? worst : task), undefined);
  return { longest: longest?.duration ?? 0, longestAt: longest ? longest.start - from : 0, tbt, count: inside.length };
}

/** The tasks that run for some of [from, to) (epoch ms). */
export const within = <T extends Task>(tasks: T[], from: number, to: number): T[] =>
  tasks.filter((task) => task.start + task.duration > from && task.start < to);

/** A start's longest task and when it began, for the log: "92 ms at 1620 ms". */
export const longestOf = (run: Start) => `${ms(run.whole.longest)} at ${ms(run.whole.longestAt)}`;

/** Each run's figure, rounded, as a note lists them: "85, 98, 76". */
export function rounded<T>(runs: T[], pick: (run: T) => number): string {
  return runs.map((run) => Math.round(pick(run))).join(', ');
}

/** The stored document applied and the projection caught up: the end of a start. */
export const settle = (page: Page) =>
  page.evaluate(async () => {
    const data = (window as unknown as AppWindow).__ranch.data;
    await data.loaded;
    await data.projection.idle();
    return performance.now();
  });

export type Start = {
  origin: number;
  firstRow: number;
  settled: number;
  window: ReturnType<typeof blocking>;
  whole: ReturnType<typeof blocking>;
  /**
   * The same, each task counted for as long as the main thread was on the CPU in it (its
   * trace's thread time, main-thread-tasks.ts): what the host's other threads held the core
   * for left out. null: not traced.
   */
  cpu: { window: ReturnType<typeof blocking>; whole: ReturnType<typeof blocking> } | null;
  addHorse: number | null;
  /** The start's long animation frames and long tasks (performance.now(), ms), for logFrames. */
  frames: Frame[];
  /** Each long task: start, duration and whose it was (the entry's name: self, unknown, a frame's kind). */
  longTasks: [number, number, string?][];
  /** How many of the whole start's long tasks only the trace saw (main-thread-tasks.ts); null: not traced. */
  unseen: number | null;
  /** The longest task the garbage collector posted for itself in the whole start (ms; main-thread-tasks.ts); null: not traced. */
  gc: number | null;
};

/**
 * BENCH_LOAF=1: each long task over 80 ms of a start, what its frame spent on style, layout
 * and rendering, and the scripts that ran in it (long animation frames' attribution), one
 * line each.
 */
export function logFrames(run: Start, log: (line: string) => void): void {
  if (process.env.BENCH_LOAF !== '1') return;
  for (const [start, duration, whose] of run.longTasks) {
    if (duration <= 80) continue;
    const end = start + duration;
    const frame = run.frames.find((f) => f.start <= start + 1 && f.start + f.duration >= end - 1);
    const describe = (f: Frame) => `frame ${ms(f.start)} + ${ms(f.duration)}, style+layout ${ms(f.styleAndLayout)}, render ${ms(f.render)}`;
    // A frame whose script ran in an earlier task and whose rendering runs in this one (a
    // BeginMainFrame task, in the trace) ends inside it.
    const rendered = frame ? undefined : run.frames.find((f) => f.start < start && f.start + f.duration > start + 1);
    const shape = frame
      ? `${describe(frame)}; ${whose ?? '?'}`
      : rendered
        ? `the rendering of ${describe(rendered)}; ${whose ?? '?'}`
        : `no frame, ${whose ?? '?'}`;
    log(`    task at ${ms(start)}: ${ms(duration)} (${shape})`);
    for (const s of frame?.scripts ?? []) {
      if (s.start < start - 1 || s.start > end) continue;
      log(`      ${ms(s.duration)} ${s.invoker} ${s.fn || '-'} ${s.url}:${s.at}${s.forced ? ` forced ${ms(s.forced)}` : ''}`);
    }
  }
}

/**
 * A start with the data on the device: /horses, `during` acting on the page meanwhile (given
 * the navigation's epoch time), then until the document has loaded and the first 10 s are
 * over. Long tasks are counted from the navigation: the first 10 s (clipped) and the whole start.
 */
export async function start(
  page: Page,
  url: string,
  tasks: Task[],
  during: (page: Page, origin: number) => Promise<void> = async () => {},
): Promise<Start> {
  const { value, traced } = await withMainThreadTasks(page, async () => {
    await page.goto(`${url}/horses`, { waitUntil: 'commit' });
    const origin = await page.evaluate(() => performance.timeOrigin);
    await during(page, origin);
    await waitFor(async () => (await probe(page)).firstRow !== null, 120_000, 'the first row');
    const { firstRow } = await probe(page);
    const settled = await settle(page);
    const now = await pageNow(page);
    if (now < WINDOW + 500) await sleep(WINDOW + 500 - now);
    await sleep(500); // the observer reports a long task after it ends
    return { origin, firstRow: firstRow!, settled, addHorse: (await probe(page)).addHorse };
  });
  const { origin, settled } = value;
  const { frames, longTasks } = await page.evaluate(() => ({
    frames: (window as unknown as AppWindow).__frames,
    longTasks: (window as unknown as AppWindow).__longTasks,
  }));
  // The tasks the observer did not see join the start's (and the log's, by who posted them);
  // the observer's own long tasks say what the trace saw over them.
  if (traced) for (const task of longTasks) task[2] = `${task[2] ?? '?'}; ${inTrace(traced.all, origin + task[0], task[1])}`;
  const unseen = addUnseen(tasks, traced?.long ?? []);
  longTasks.push(
    ...unseen.map(({ start, duration, cpu, postedBy }): [number, number, string] => [
      start - origin,
      duration,
      `traced, ${Math.round(cpu)} ms on the CPU, ${postedBy}`,
    ]),
  );
  const end = Math.max(settled, WINDOW) + origin;
  const onCpu = traced && onTheCpu(traced.all);
  return {
    ...value,
    window: blocking(tasks, origin, origin + WINDOW),
    whole: blocking(tasks, origin, end),
    cpu: onCpu && { window: blocking(onCpu, origin, origin + WINDOW), whole: blocking(onCpu, origin, end) },
    frames,
    longTasks,
    unseen: traced ? blocking(unseen, origin, end).count : null,
    gc: traced ? blocking(traced.all.filter(isCollectorTask), origin, end).longest : null,
  };
}

/** Files to take a start's CPU profile or trace into, when asked (BENCH_PROFILE_*, BENCH_TRACE_*). */
export type Observation = { profile?: string; trace?: string };

/** `run` under the sampling profiler or traced, as `observe` asks (the profile wins), or plainly. */
export function observed<T>(page: Page, observe: Observation, log: (line: string) => void, run: () => Promise<T>): Promise<T> {
  if (observe.profile) return profileMainThread(page, observe.profile, log, run);
  if (observe.trace) return tracePage(page, observe.trace, log, run);
  return run();
}

/**
 * During a start (`origin`: its navigation, epoch ms): presses S `delay` ms after the first
 * row shows (asked every 20 ms, with the search box focused), then waits until the list
 * follows the search. The search box must take the focus by itself (`bench:focus-search` in
 * sessionStorage, PROBE).
 */
export async function pressKeyAfterFirstRow(page: Page, origin: number, delay: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  let marks = await probe(page);
  while (marks.firstRow === null || !marks.focused) {
    if (Date.now() > deadline) throw new Error('Timed out waiting for the first row and the focused search box');
    await sleep(20);
    marks = await probe(page);
  }
  await sleep(Math.max(0, origin + marks.firstRow + delay - Date.now()));
  await page.keyboard.press('S');
  const pressed = Date.now();
  await waitFor(async () => (await probe(page)).keyAt !== null || Date.now() - pressed > 5000, 120_000, 'the key');
  if ((await probe(page)).keyAt === null) throw new Error('The key reached no search box (not focused yet?)');
  await waitFor(async () => (await probe(page)).shownAt !== null, 120_000, 'the list to follow the search');
}
