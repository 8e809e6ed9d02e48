// Two builds' starts, alternating (`BENCH_ONLY=ab-starts`, `BENCH_AB_DIR=<the other build>`;
// docs/performance.md "Tools for a closer look"). On a busy host a phone start's figures move as much
// between two runs of one build as between two builds, and the host's speed drifts within
// minutes, so builds are compared start by start in the same minutes: each build has its own
// server (one Postgres database); there are as many phones as builds (a fresh profile each,
// CPU 4× or BENCH_PHONE_RATE), each signed in and synced once to every build; each round
// starts every build with the data on the device, each on another phone than the round
// before (one browser can be slower than another through a whole run: 40-45 ms in its
// medians, docs/performance.md),
// the order swapped every round. A phone not starting shows a page that is not the app, so
// its workers stop meanwhile (`leaveApp`). `BENCH_AB_DO` says what each start does (StartAction): `list`
// (default), `key:<ms>` (S typed in the search that long after the first row; 2000 lands
// while the list is read), `write` (the first write) or `edit` (the first edit).
// `BENCH_NEW_TAB=1` starts each in a new tab instead (phone-session.ts, inNewTab): the app's code cold;
// `BENCH_COLD=1` in the phone's browser started again (phone-session.ts, inNewBrowser). A phone waits
// at 1× while another starts: a throttled page spins most of a core even when idle (phone-session.ts,
// Pace), which slowed the starting phone's workers and the servers.
import { median } from '../../sync-server/bench/clients.ts';
import { ms, type Row } from '../../sync-server/bench/table.ts';
import { browserProfiles, inTurn } from './browser-profiles.ts';
import { profileMainThread } from './cpu-profile.ts';
import { heapFigures, type HeapFigures, mib } from './heap.ts';
import { tracePage } from './trace.ts';
import { cpuIndex, onBlankPage } from './cpu-index.ts';
import { probe, untilEdited, untilSaved, waitFor } from './phone-probe.ts';
import {
  chooseRate,
  DEFAULT_RATE,
  inNewBrowser,
  inNewTab,
  leaveApp,
  openPhone,
  PHONE,
  type Phone,
  signInAndSync,
} from './phone-session.ts';
import { logFrames, pressKeyAfterFirstRow, rounded, start, type Start } from './phone-start.ts';

type Build = { label: string; url: string };

/**
 * What each start does besides starting: nothing until the whole list is in (`list`); S typed
 * in the search `delay` ms after the first row (`key`); or the first write (`write`): Add Horse
 * tapped as soon as it is offered, the form filled, Create pressed at the first row, until
 * saved (as the phone rows' first write, PROBE's `bench:first-write`); or the first edit
 * (`edit`): the first row's Edit tapped, its name changed and Update Horse pressed at once,
 * until saved (PROBE's `bench:first-edit`).
 */
export type StartAction = { kind: 'list' } | { kind: 'key'; delay: number } | { kind: 'write' } | { kind: 'edit' };

/** The action's own figure (ms), as the table names it. */
type Figure = { label: string; value: number };
type Run = Start & { figure: Figure; detail?: string; phone: number; heap?: HeapFigures };
/** A build's place in `builds` (which phone it starts on in a round) and its starts. */
type Turn = { build: Build; place: number; starts: Run[] };

/** Arms the probe for the action's starts (sessionStorage: it lasts across the tab's navigations). */
const ARMING: Record<StartAction['kind'], string | undefined> = {
  list: undefined,
  key: 'bench:focus-search',
  write: 'bench:first-write',
  edit: 'bench:first-edit',
};

/** One start of `build` on `phone` doing `action`; resolves with the action's figure. */
async function startDoing({ page, tasks }: Phone, build: Build, action: StartAction, horses: number): Promise<Omit<Run, 'phone'>> {
  if (action.kind === 'key') {
    const run = await start(page, build.url, tasks, (page, origin) => pressKeyAfterFirstRow(page, origin, action.delay));
    const marks = await probe(page);
    return { ...run, figure: { label: `S typed ${action.delay} ms after it → list`, value: marks.shownAt! - marks.keyAt! } };
  }
  if (action.kind === 'write') {
    const run = await start(page, build.url, tasks, untilSaved);
    const marks = await probe(page);
    const phases = `Add Horse ${ms(marks.addHorse!)}, clicked ${ms(marks.addClick!)}, dialog ${ms(marks.dialog!)}, filled ${ms(marks.filled!)}, Create ${ms(marks.create!)}, saved ${ms(marks.saved!)}`;
    return { ...run, figure: { label: 'first row → horse saved', value: marks.saved! - run.firstRow }, detail: phases };
  }
  if (action.kind === 'edit') {
    const run = await start(page, build.url, tasks, untilEdited);
    const marks = await probe(page);
    const phases = `Edit tapped ${ms(marks.editClick!)}, Update pressed ${ms(marks.editPressed!)}, saved ${ms(marks.edited!)}`;
    return { ...run, figure: { label: 'first row → edit saved', value: marks.edited! - run.firstRow }, detail: phases };
  }
  const run = await start(page, build.url, tasks);
  await waitFor(async () => (await probe(page)).listSize >= horses, 120_000, 'the whole list');
  return { ...run, figure: { label: 'whole list', value: (await probe(page)).listAt! } };
}

export async function abStarts(
  builds: Build[],
  horses: number,
  log: (line: string) => void,
  { rounds, action }: { rounds: number; action: StartAction },
): Promise<Row[]> {
  const profiles = browserProfiles('ranch-bench-ab-');
  const phones: Phone[] = [];
  const turns: Turn[] = [];
  // BENCH_PHONE_RATE as in the phone rows (4× by default), scored once on the first phone.
  let chosen: { rate: number; label: string } | undefined;
  try {
    for (let n = 0; n < builds.length; n++) {
      const context = await profiles.launch(PHONE);
      chosen ??= await onBlankPage(context, async (blank, cdp) => chooseRate(blank, cdp, await cpuIndex(blank, cdp, 1)));
      const phone = await openPhone(context, chosen.rate, log);
      for (const [i, build] of builds.entries()) {
        await signInAndSync(phone.page, build.url, { signedIn: i > 0 });
        const arming = ARMING[action.kind];
        if (arming) await phone.page.evaluate((key) => sessionStorage.setItem(key, '1'), arming);
        await leaveApp(phone.page, build.url);
      }
      await phone.pace(1);
      phones.push(phone);
    }
    for (const [place, build] of builds.entries()) turns.push({ build, place, starts: [] });
    const rate = chosen?.rate ?? DEFAULT_RATE;
    log(`  ab: phones at ${chosen?.label ?? `CPU ${rate}×`}`);
    for (let round = 0; round < rounds; round++) {
      for (const turn of inTurn(turns, round)) {
        // Build i starts on phone (i + round) mod n: every phone every build, each in turn.
        const phoneIndex = (turn.place + round) % phones.length;
        const phone = phones[phoneIndex]!;
        // BENCH_AB_TRACE=<file>: the first build's first start, traced (trace.ts); with
        // BENCH_AB_TRACE_ALL=1, every start of the first build, in <file>.<round>.json.
        // BENCH_AB_PROFILE=<file>: the same starts under the sampling profiler instead
        // (cpu-profile.ts), in <file>.<round>.cpuprofile with BENCH_AB_TRACE_ALL=1.
        const traceFile = process.env.BENCH_AB_TRACE;
        const profileFile = process.env.BENCH_AB_PROFILE;
        const file = profileFile ?? traceFile;
        // BENCH_AB_TRACE_ALL=both: every start of every build, in <file>.<build>.<round>.json.
        const both = process.env.BENCH_AB_TRACE_ALL === 'both';
        const traceAll = both || process.env.BENCH_AB_TRACE_ALL === '1';
        const observed = file !== undefined && (turn === turns[0] || both) && (round === 0 || traceAll);
        const named = both ? `${file}.${turn.place + 1}.${round + 1}` : `${file}.${round + 1}`;
        const output = !observed ? undefined : traceAll ? `${named}.${profileFile ? 'cpuprofile' : 'json'}` : file;
        const { build } = turn;
        // BENCH_NEW_TAB=1: each start in a new tab (phone-session.ts, inNewTab), its code cold;
        // BENCH_COLD=1: in the phone's browser started again (inNewBrowser). Otherwise the
        // phone, idle at 1× since its last start, is throttled again.
        if (process.env.BENCH_COLD === '1') Object.assign(phone, await inNewBrowser(phone.page, profiles.restart, rate, phone.tasks, log));
        else if (process.env.BENCH_NEW_TAB === '1') Object.assign(phone, await inNewTab(phone.page, build.url, rate, log));
        else await phone.pace(rate);
        const doing = () => startDoing(phone, build, action, horses);
        const done = await (output === undefined
          ? doing()
          : profileFile
            ? profileMainThread(phone.page, output, log, doing)
            : tracePage(phone.page, output, log, doing));
        // BENCH_HEAP=1: the heap the start leaves, read before the phone leaves the app (heap.ts).
        const heap = process.env.BENCH_HEAP ? await heapFigures(phone.page) : undefined;
        await leaveApp(phone.page, build.url);
        await phone.pace(1);
        const run: Run = { ...done, phone: phoneIndex + 1, heap };
        turn.starts.push(run);
        log(
          `  ab: ${build.label}, start ${round + 1} (phone ${run.phone}): first row ${ms(run.firstRow)}, ${run.figure.label} ${ms(run.figure.value)}${run.detail ? ` (${run.detail})` : ''}; first 10 s: ${run.window.count} long tasks, longest ${ms(run.window.longest)}, blocking ${ms(run.window.tbt)}; longest garbage collection task ${run.gc === null ? 'not traced' : ms(run.gc)}${run.heap ? `; heap ${mib(run.heap.used)} in use, ${mib(run.heap.live)} live` : ''}`,
        );
        logFrames(run, log);
      }
    }
  } finally {
    await profiles.closeAll();
  }
  return turns.flatMap(({ build, starts }) => {
    const group = `Phone (${chosen?.label ?? 'no phone'}), builds alternating`;
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
        note: `longest ${rounded(starts, (run) => run.window.longest)} ms; blocking ${rounded(starts, (run) => run.window.tbt)} ms; whole start: longest ${rounded(starts, (run) => run.whole.longest)} ms`,
      },
      {
        group,
        figure: `${build.label}: start, longest garbage collection task (median)`,
        // Of the starts whose light trace came back (a start without one has no figure).
        ours: ms(median(starts.flatMap((run) => (run.gc === null ? [] : [run.gc])))),
        note: `the whole start, tasks V8 posted for its collector (traced; NaN: not traced): ${rounded(starts, (run) => run.gc ?? Number.NaN)} ms`,
      },
      ...(starts.every((run) => run.heap)
        ? [
            {
              group,
              figure: `${build.label}: the heap a start leaves, in use / live (medians)`,
              ours: `${mib(of((run) => run.heap!.used))} / ${mib(of((run) => run.heap!.live))}`,
              note: `live ${starts.map((run) => mib(run.heap!.live)).join(', ')}`,
            },
          ]
        : []),
      {
        group,
        figure: `${build.label}: start, first horse row / ${starts[0]?.figure.label ?? ''} (medians)`,
        ours: `${ms(of((run) => run.firstRow))} / ${ms(of((run) => run.figure.value))}`,
        note: `first row ${rounded(starts, (run) => run.firstRow)} ms; ${starts[0]?.figure.label ?? ''} ${rounded(starts, (run) => run.figure.value)} ms`,
      },
    ];
  });
}
