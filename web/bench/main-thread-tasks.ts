// The page's main-thread tasks over 50 ms as Chromium's trace records them, for what the
// page's long-task observer cannot see. The observer reports tasks that ran the page's script
// or rendering; a task V8 posts for itself does not reach it. On the phone bench a major
// garbage collection can finish in such a task (IncrementalMarkingJob, MemoryReducer), a
// long task no observer reports. A light trace (task events only) runs over each
// start and the first sync, and its long tasks join the observer's; each long task the
// observer did report says what the trace saw over it (`inTrace`), for the observer has also
// reported a run of short tasks as one long one.
//
// Each traced task also says how long the main thread was on a core during it (the trace's
// thread time). Chromium throttles the CPU by interrupting the main thread every 200 µs and
// spinning in the interrupt for (rate − 1) times the time since the last one, so a throttled
// task's thread time is its work times the rate, and more when the thread lost its core
// meanwhile; its wall time adds whatever the host's other threads held the core for (the
// data worker, the compositor, the bench's server, on a host of two cores). The thread time
// is thus at least what the emulated phone would take and at most the wall time
// (docs/performance.md "The host and the phone").
import type { Page } from 'playwright-core';
import { isTraced, recordTrace } from './trace.ts';

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread time, µs: how long the thread was on a core. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { src_func?: string; frame?: string; data?: { documentLoaderURL?: string; isOutermostMainFrame?: boolean } };
};

/** A span of time: when it began (epoch ms) and how long it lasted (ms); the bench's `Task`. */
type Span = { start: number; duration: number };
/**
 * A task the trace saw: when it began (epoch ms), how long it ran, how long of that the main
 * thread was on a core (`cpu`, ms; its wall time where the trace has no thread time), and who
 * posted it.
 */
export type TracedTask = Span & { cpu: number; postedBy: string };
/** The main thread's tasks over 50 ms, and all of them (for what a long task the observer reported was in the trace). */
export type TracedTasks = { long: TracedTask[]; all: TracedTask[] };

/** Each task's event and the navigations' (which say which thread is the page's). */
const CATEGORIES = ['toplevel', 'blink.user_timing'];
const LONG_TASK_MS = 50;

/**
 * Runs `run` with the page's tasks traced; then the long tasks of the main thread of the
 * document the page shows by then, from its navigation on, leaving out the task that
 * committed it (it unloads the page before and began before the commit ended; the observer
 * is not there yet either). `null` when a full trace of the page is under way (trace.ts):
 * Chromium traces once at a time; or when the trace did not see the document's navigation.
 */
export async function withMainThreadTasks<T>(page: Page, run: () => Promise<T>): Promise<{ value: T; traced: TracedTasks | null }> {
  if (isTraced(page)) return { value: await run(), traced: null };
  let events: TraceEvent[] = [];
  const value = await recordTrace(page, CATEGORIES, run, (recorded) => {
    events = recorded as TraceEvent[];
  });
  const documentOf = await page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return { timeOrigin: performance.timeOrigin, url: navigation?.name ?? location.href, unloadEnd: navigation?.unloadEventEnd ?? 0 };
  });
  const all = tasksOf(events, documentOf);
  return { value, traced: all && { long: all.filter((task) => task.duration >= LONG_TASK_MS), all } };
}

/** The tasks of the thread that navigated to `url` (its last navigation), epoch ms; null if the trace has no such navigation. */
export function tasksOf(
  events: TraceEvent[],
  { timeOrigin, url, unloadEnd }: { timeOrigin: number; url: string; unloadEnd: number },
): TracedTask[] | null {
  const navigation = events.findLast(
    (e) => e.name === 'navigationStart' && e.args?.data?.isOutermostMainFrame !== false && e.args?.data?.documentLoaderURL === url,
  );
  if (!navigation) return null;
  const committed = events.find(
    (e) => e.name === 'commitNavigationEnd' && e.args?.frame === navigation.args?.frame && e.ts >= navigation.ts,
  );
  const from = committed?.ts ?? navigation.ts + unloadEnd * 1000;
  return events
    .filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.ph === 'X' && e.pid === navigation.pid && e.tid === navigation.tid)
    .filter((e) => e.dur !== undefined && e.ts >= from)
    .map((e) => ({
      start: timeOrigin + (e.ts - navigation.ts) / 1000,
      duration: e.dur! / 1000,
      cpu: (e.tdur ?? e.dur!) / 1000,
      postedBy: (e.args?.src_func ?? '?')
        .replace(/^void /, '')
        .replace(/^v8::internal::/, '')
        .replace(/\(.*$/, ''),
    }));
}

/**
 * The traced tasks the observer's list does not hold (one overlapping it by more than half
 * its length is the same task), added to `tasks`; returns those added.
 */
export function addUnseen(tasks: Span[], traced: TracedTask[]): TracedTask[] {
  const unseen = traced.filter((task) => !tasks.some((seen) => overlap(seen, task) > task.duration / 2));
  tasks.push(...unseen);
  return unseen;
}

/**
 * What the trace saw over a long task the observer reported (epoch ms): one task or several.
 * The observer has reported long tasks that the trace shows as many short ones.
 */
export function inTrace(all: TracedTask[], start: number, duration: number): string {
  // Overlapping it by more than half a millisecond: a task just before or after touches it.
  const inside = all.filter((task) => overlap(task, { start, duration }) > 0.5);
  const longest = inside.reduce<TracedTask | undefined>((top, task) => (top && top.duration >= task.duration ? top : task), undefined);
  if (!longest) return 'no task in the trace';
  const of = `${Math.round(longest.duration)} ms, ${Math.round(longest.cpu)} ms on the CPU, ${longest.postedBy}`;
  return inside.length === 1 ? `one task in the trace (${of})` : `${inside.length} tasks in the trace, the longest ${of}`;
}

/**
 * A task V8 posted for its garbage collector (incremental marking and its finish, the memory
 * reducer, young-generation collections, Blink's heap's sweeping): the trace's only sign of a
 * collection between the page's tasks. A collection finished inside a task of the page's is
 * not one of these.
 */
export const isCollectorTask = (task: TracedTask): boolean =>
  /^(IncrementalMarkingJob|MemoryReducer|ScavengeJob|MinorGCJob)::|cppgc::internal::Sweeper/.test(task.postedBy);

/** The tasks as long as they were on the CPU: spans for `blocking` (phone-start.ts), each from its wall start. */
export const onTheCpu = (tasks: TracedTask[]): Span[] => tasks.map(({ start, cpu }) => ({ start, duration: cpu }));

/** How long two spans of time overlap, ms (negative when apart). */
function overlap(a: Span, b: Span): number {
  return Math.min(a.start + a.duration, b.start + b.duration) - Math.max(a.start, b.start);
}
