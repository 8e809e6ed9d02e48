// The phone bench's light trace (web/bench/main-thread-tasks.ts): which of a trace's tasks
// are the start's, and which join the long tasks the page's observer reported.
import { describe, expect, it } from 'vitest';
import { addUnseen, inTrace, isCollectorTask, onTheCpu, tasksOf } from './main-thread-tasks.ts';

const URL = 'http://127.0.0.1:5000/horses';
const ORIGIN = 1_700_000_000_000; // the document's timeOrigin, epoch ms
const NAV_TS = 5_000_000; // its navigationStart in the trace, µs

const navigation = (ts: number, url: string, frame: string, pid = 7) => ({
  name: 'navigationStart',
  ph: 'R',
  ts,
  pid,
  tid: pid,
  args: { frame, data: { documentLoaderURL: url, isOutermostMainFrame: true } },
});
/** A main-thread task; `cpuMs` its thread time, when the trace has one. */
const task = (atMs: number, ms: number, postedBy = 'PostDispatchNextMessageFromPipe', pid = 7, tid = pid, cpuMs?: number) => ({
  name: 'ThreadControllerImpl::RunTask',
  ph: 'X',
  ts: NAV_TS + atMs * 1000,
  dur: ms * 1000,
  ...(cpuMs === undefined ? {} : { tdur: cpuMs * 1000 }),
  pid,
  tid,
  args: { src_func: postedBy },
});

const trace = [
  navigation(NAV_TS - 20_000_000, URL, 'F'), // the start before, same page
  task(-19_000, 300), // a task of the start before
  navigation(NAV_TS, URL, 'F'),
  task(50, 160, 'Accept'), // commits the document: unloads the page before
  { name: 'commitNavigationEnd', ph: 'R', ts: NAV_TS + 200_000, pid: 7, tid: 7, args: { frame: 'F' } },
  task(400, 60, 'DispatchFinishedNotificationAsync', 7, 7, 58),
  task(470, 4),
  task(900, 30),
  task(935, 40),
  task(11_843, 148, 'void v8::internal::IncrementalMarkingJob::ScheduleTask()', 7, 7, 61), // the core mostly elsewhere
  task(3000, 400, 'Terminate', 7, 9), // the data worker's thread
  task(3000, 500, 'Accept', 8), // another renderer
];
const documentOf = { timeOrigin: ORIGIN, url: URL, unloadEnd: 0 };

describe('tasksOf', () => {
  it("gives the document's main-thread tasks after its commit, in epoch ms, named by who posted them", () => {
    const all = tasksOf(trace, documentOf)!;
    expect(all.map(({ start, duration }) => [start - ORIGIN, duration])).toEqual([
      [400, 60],
      [470, 4],
      [900, 30],
      [935, 40],
      [11_843, 148],
    ]);
    expect(all.at(-1)!.postedBy).toBe('IncrementalMarkingJob::ScheduleTask');
  });

  it('says how long each task was on the CPU: its thread time, else its wall time', () => {
    const all = tasksOf(trace, documentOf)!;
    expect(all.map(({ cpu }) => cpu)).toEqual([58, 4, 30, 40, 61]);
  });

  it('is null when the trace has no navigation to the document', () => {
    expect(tasksOf(trace, { ...documentOf, url: 'http://127.0.0.1:5000/sales' })).toBeNull();
  });

  it('counts from the unload event without a commit mark', () => {
    const withoutMark = trace.filter((e) => e.name !== 'commitNavigationEnd');
    expect(tasksOf(withoutMark, { ...documentOf, unloadEnd: 30 })![0]!.duration).toBe(160);
    expect(tasksOf(withoutMark, { ...documentOf, unloadEnd: 60 })![0]!.duration).toBe(60);
  });
});

describe('addUnseen', () => {
  it('adds only the long tasks no observed task covers', () => {
    const long = tasksOf(trace, documentOf)!.filter((t) => t.duration >= 50);
    const observed = [{ start: ORIGIN + 400.4, duration: 59.5 }];
    const added = addUnseen(observed, long);
    expect(added.map((t) => t.postedBy)).toEqual(['IncrementalMarkingJob::ScheduleTask']);
    expect(observed.map((t) => Math.round(t.start - ORIGIN))).toEqual([400, 11_843]);
  });
});

describe('inTrace', () => {
  const all = tasksOf(trace, documentOf)!;
  it('says a long task the observer reported was one task in the trace', () => {
    expect(inTrace(all, ORIGIN + 400, 60)).toBe('one task in the trace (60 ms, 58 ms on the CPU, DispatchFinishedNotificationAsync)');
  });
  it('says when the trace saw several shorter tasks there instead', () => {
    expect(inTrace(all, ORIGIN + 890, 90)).toBe(
      '2 tasks in the trace, the longest 40 ms, 40 ms on the CPU, PostDispatchNextMessageFromPipe',
    );
  });
  it('says when the trace saw no task there', () => {
    expect(inTrace(all, ORIGIN + 5000, 80)).toBe('no task in the trace');
  });
});

describe('isCollectorTask', () => {
  it("tells the garbage collector's own tasks from the page's", () => {
    const posted = (postedBy: string) => isCollectorTask({ start: 0, duration: 120, cpu: 120, postedBy });
    expect(
      tasksOf(trace, documentOf)!
        .filter(isCollectorTask)
        .map((t) => t.duration),
    ).toEqual([148]);
    expect(posted('MemoryReducer::ScheduleTimer')).toBe(true);
    expect(posted('static Handle cppgc::internal::Sweeper::SweeperImpl::IncrementalSweepTask::Post')).toBe(true);
    expect(posted('ScheduledActionSendBeginMainFrame')).toBe(false);
    expect(posted('PostDispatchNextMessageFromPipe')).toBe(false);
  });
});

describe('onTheCpu', () => {
  it('gives each task as long as it was on the CPU, from where it began', () => {
    const all = tasksOf(trace, documentOf)!;
    expect(onTheCpu(all).map(({ start, duration }) => [start - ORIGIN, duration])).toEqual([
      [400, 58],
      [470, 4],
      [900, 30],
      [935, 40],
      [11_843, 61],
    ]);
  });
});
