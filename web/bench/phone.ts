// The phone row set of `npm run bench` (issue 12, "Measure it the way a phone feels it";
// docs/performance.md "The host and the phone"): Chromium with the page's CPU throttled 4× through
// the DevTools protocol (Emulation.setCPUThrottlingRate, DevTools' mid-range-phone setting),
// a 390×844 touch viewport, on the bench ranch. Long tasks come from a
// PerformanceObserver({ type: 'longtask', buffered: true }) installed before the app's
// scripts (addInitScript), reported to the bench through a binding so a navigation loses none,
// and from a light trace of each start and the first sync for the tasks the observer never
// reports (a garbage collection's finish; main-thread-tasks.ts).
import type { Page } from 'playwright-core';
import { sleep } from '../../sync-server/bench/clients.ts';
import type { RanchServer } from '../../sync-server/bench/ranch.ts';
import { ms, type Row } from '../../sync-server/bench/table.ts';
import { browserProfiles } from './browser-profiles.ts';
import { collectorIndex } from './collector-index.ts';
import { confineBrowsers } from './confined-browser.ts';
import { cpuIndex, onBlankPage, workerIndex } from './cpu-index.ts';
import { chromiumDescendants } from './browser-memory.ts';
import { heapFigures, heapInUse, mib, sampleAllocations, writeHeapSnapshot } from './heap.ts';
import { addUnseen, onTheCpu, type TracedTask, withMainThreadTasks } from './main-thread-tasks.ts';
import { type AppWindow, formsWarmed, type Probe, probe, untilEdited, untilSaved, waitFor } from './phone-probe.ts';
import { type FirstEdit, type FirstWrite, type KeyStart, phoneRows } from './phone-rows.ts';
import { inNewBrowser, inNewTab, leaveApp, openPhone, PHONE, signInAndSync, slowDown } from './phone-session.ts';
import {
  blocking,
  logFrames,
  longestOf,
  type Observation,
  observed,
  pressKeyAfterFirstRow,
  type Start,
  start,
  within,
} from './phone-start.ts';
import { profileDataWorker } from './worker-profile.ts';
import { tracePage } from './trace.ts';

/** The phone rows, and how the phone was made of the host (for the table's header). */
export type PhoneResult = { rows: Row[]; conditions: string };

export async function phoneBench(server: RanchServer, log: (line: string) => void, options: { quick: boolean }): Promise<PhoneResult> {
  // The whole browser in a cgroup of its own (confined-browser.ts), its share set once the page's rate is chosen.
  const confinement = confineBrowsers('ranch-bench-phone-');
  if (!confinement.confined) log(`  phone: browser not confined: ${confinement.reason}`);
  const profiles = browserProfiles('ranch-bench-phone-', confinement.executablePath);
  const began = Date.now();
  try {
    let context = await profiles.launch(PHONE);
    // Before the probe is installed: its long-task observer would report the scoring's tasks.
    // The collector index first, while the browser has every core it can get.
    const collector = await onBlankPage(context, collectorIndex);
    const { rate, label, host, scored, confined, browser } = await slowDown(context, confinement);
    log(
      `  phone: the page's CPU index ${Math.round(scored)} at ${rate}×, ${Math.round(host)} unthrottled; ${browser.long}: the page then scores ${Math.round(confined.page)} and a worker ${Math.round(confined.worker)}; a heap like a start's made in ${ms(collector.made)} and collected in ${ms(collector.collected)}, unthrottled`,
    );
    const group = `Phone (${label}, ${browser.short})`;
    const opened = await openPhone(context, rate, log);
    const { tasks } = opened;
    let { page } = opened;

    // (d) and (a) A first sync: a new device signs in; until every list is filled.
    const firstSync = async (): Promise<{ signIn: number; filled: number; traced: TracedTask[] | null }> => {
      const run = () => signInAndSync(page, server.url, { lists: server.lists });
      const trace = process.env.BENCH_TRACE_SYNC;
      if (trace) return { ...(await tracePage(page, trace, log, run)), traced: null };
      const profile = process.env.BENCH_PROFILE_SYNC;
      if (profile) return { ...(await profileDataWorker(context, profile, log, run)), traced: null };
      // The signed-in document's tasks only the trace saw join the first sync's (main-thread-tasks.ts).
      const { value, traced } = await withMainThreadTasks(page, run);
      const unseen = addUnseen(tasks, traced?.long ?? []);
      const inside = within(unseen, value.signIn, value.filled);
      const named = inside.map((task) => `${ms(task.duration)} at ${ms(task.start - value.signIn)}, ${task.postedBy}`);
      log(
        `  phone: first sync traced: ${traced ? `${inside.length} long tasks seen only in the trace${named.length ? ` (${named.join('; ')})` : ''}` : 'no navigation found'}`,
      );
      return { ...value, traced: traced?.all ?? null };
    };
    const { signIn, filled, traced: syncTraced } = await firstSync();
    const { payments, care } = await page.evaluate(async () => {
      const { db } = (window as unknown as AppWindow).__ranch.data;
      // The ledger's payments, a row each, and any a document of the old layout keeps per sale.
      const payments =
        ((await db.payments?.count()) ?? 0) + (await db.salePayments.toArray()).reduce((sum, row) => sum + row.payments.length, 0);
      const care = db.horseCare
        ? (await db.horseCare.toArray()).reduce((sum, row) => sum + row.entries.length, 0)
        : ((await db.careEntries?.count()) ?? 0);
      return { payments, care };
    });
    await sleep(2000); // the count is one long read: settled before the first start
    const sync = blocking(tasks, signIn, filled);
    const syncCpu = syncTraced && blocking(onTheCpu(syncTraced), signIn, filled);
    log(
      `  phone: first sync, sign-in → every list filled ${ms(filled - signIn)} (${payments} payments, ${care} care entries); ${sync.count} long tasks, longest ${ms(sync.longest)}, blocking ${ms(sync.tbt)}${syncCpu ? `; on the CPU: longest ${ms(syncCpu.longest)}` : ''}`,
    );

    if (confinement.confined) {
      // The data worker runs by now: every process of the browser must be in the group.
      const inGroup = new Set(confinement.processes());
      const outside = chromiumDescendants().filter((pid) => !inGroup.has(pid));
      log(
        `  phone: ${inGroup.size} processes in ${confinement.path}${outside.length ? `; NOT in it: ${outside.join(', ')}` : ', every Chromium process of the bench among them'}`,
      );
    }

    // The phone's browser closed and started again on its profile: a start from the home screen
    // after the system closed the app (the starts anew below; BENCH_COLD=1 makes every start one).
    const anew = async () => {
      ({ context, page } = await inNewBrowser(page, profiles.restart, rate, tasks, log));
    };
    // Each start in the tab of the one before (the app's page navigates to itself, as a reload
    // does), with BENCH_NEW_TAB=1 in a new tab (inNewTab), with BENCH_COLD=1 in a browser
    // started again (anew).
    const beforeStart = async () => {
      if (process.env.BENCH_COLD === '1') await anew();
      else if (process.env.BENCH_NEW_TAB === '1') ({ page } = await inNewTab(page, server.url, rate, log));
    };

    // (a) Starts with the data on the device, nothing done meanwhile; then one key once settled.
    const starts: Start[] = [];
    let settledKey = Number.NaN;
    // BENCH_IDLE_BEFORE_START=<ms>: the page of a plain start left that long before the next
    // one, as a person uses the app a while before reloading it (its collector frees its own
    // garbage meanwhile, not the next page's).
    const idleBefore = Number(process.env.BENCH_IDLE_BEFORE_START ?? 0);
    for (let i = 0; i < (options.quick ? 1 : 2); i++) {
      if (i > 0 && idleBefore > 0) {
        const before = await heapInUse(page);
        await sleep(idleBefore);
        log(
          `  phone: the page left idle ${ms(idleBefore)} before start ${i + 1}: its heap in use ${mib(before)} → ${mib(await heapInUse(page))}`,
        );
      }
      await beforeStart();
      const profile = i === 0 ? process.env.BENCH_PROFILE : undefined;
      // BENCH_TRACE_START=2 traces the second start instead of the first.
      const trace = i === Number(process.env.BENCH_TRACE_START ?? 1) - 1 ? process.env.BENCH_TRACE : undefined;
      const allocations = i === 0 ? process.env.BENCH_ALLOC : undefined;
      const plainStart = () => start(page, server.url, tasks);
      const run = await (profile || !allocations
        ? observed(page, { profile, trace }, log, plainStart)
        : sampleAllocations(page, allocations, log, plainStart));
      starts.push(run);
      log(
        `  phone: start ${i + 1}: first row ${ms(run.firstRow)}, Add Horse ${ms(run.addHorse ?? Number.NaN)}, settled ${ms(run.settled)}; first 10 s: longest ${ms(run.window.longest)}, blocking ${ms(run.window.tbt)}; whole start: ${run.whole.count} long tasks (${run.unseen === null ? 'not traced' : `${run.unseen} seen only in the trace`}), blocking ${ms(run.whole.tbt)}${run.gc === null ? '' : `; longest garbage collection task ${ms(run.gc)}`}`,
      );
      logFrames(run, log);
      const heap = process.env.BENCH_HEAP;
      if (heap) {
        const { used, live } = await heapFigures(page);
        log(`  phone: start ${i + 1}'s heap at its end: ${mib(used)} in use, ${mib(live)} live`);
        if (heap !== '1' && i === 0) await writeHeapSnapshot(page, heap);
      }
    }
    await page.getByPlaceholder('Search horses...').focus();
    await page.keyboard.press('S');
    await waitFor(async () => (await probe(page)).shownAt !== null, 60_000, 'the list to follow the search');
    const afterSettled = await probe(page);
    settledKey = afterSettled.shownAt! - afterSettled.keyAt!;

    // (b) One key per start: as soon as the bench sees the first row (asked every 20 ms; the
    // page answers at once unless its main thread is held, which the note's offset shows),
    // and some seconds after it. The box takes the focus by itself (PROBE).
    // A key at the first row may land before the document starts loading; + 2 s lands inside it.
    const keyDelays = options.quick ? [0, 2000] : [0, 2000, 5000];
    const keys: KeyStart[] = [];
    await page.evaluate(() => sessionStorage.setItem('bench:focus-search', '1'));
    // The start whose key comes BENCH_KEY_DELAY ms after the first row (2 s unless told),
    // profiled or traced on request.
    const keyProfile = process.env.BENCH_PROFILE_KEY;
    const keyTrace = process.env.BENCH_TRACE_KEY;
    const observedDelay = Number(process.env.BENCH_KEY_DELAY ?? 2000);
    for (const delay of keyDelays) {
      await beforeStart();
      const keyStart = (): Promise<Start> => start(page, server.url, tasks, (page, origin) => pressKeyAfterFirstRow(page, origin, delay));
      const run = await (delay === observedDelay ? observed(page, { profile: keyProfile, trace: keyTrace }, log, keyStart) : keyStart());
      const marks = await probe(page);
      keys.push({ delay, pressed: marks.keyAt! - run.firstRow, latency: marks.shownAt! - marks.keyAt!, run });
      log(
        `  phone: key at ${ms(marks.keyAt!)} (first row ${ms(run.firstRow)}) → list ${ms(keys.at(-1)!.latency)}; longest task ${longestOf(run)}`,
      );
      logFrames(run, log);
    }
    await page.evaluate(() => sessionStorage.removeItem('bench:focus-search'));

    // A start that does something (the probe taps, fills and presses on the page itself,
    // PROBE): `key` arms the probe, `begin` readies the page the start runs in, `until` waits
    // for what was done to be saved; `observe` profiles or traces it on request.
    const actingStart = async (
      key: 'bench:first-write' | 'bench:first-edit',
      begin: () => Promise<void>,
      observe: Observation,
      until: (page: Page) => Promise<void>,
    ): Promise<{ run: Start; marks: Probe; warmed: string }> => {
      await page.evaluate((key) => sessionStorage.setItem(key, '1'), key);
      await begin();
      const run = await observed(page, observe, log, () => start(page, server.url, tasks, until));
      await page.evaluate((key) => sessionStorage.removeItem(key), key);
      const warmed = await formsWarmed(page);
      return { run, marks: await probe(page), warmed: warmed && `; forms warmed: ${warmed}` };
    };

    // (c) The first write: Add Horse as soon as it is offered, the form filled while the list
    // loads, Create pressed as soon as the first row shows (issue 12: "a new horse can be
    // saved within 1 s of the first row showing"); until the horse is saved.
    const writeObserved = { profile: process.env.BENCH_PROFILE_WRITE, trace: process.env.BENCH_TRACE_WRITE };
    const firstWrite = async (label: string, begin: () => Promise<void>, observe: Observation = {}): Promise<FirstWrite> => {
      const { run, marks, warmed } = await actingStart('bench:first-write', begin, observe, untilSaved);
      const write = {
        run,
        addHorse: marks.addHorse!,
        addClick: marks.addClick!,
        dialog: marks.dialog!,
        filled: marks.filled!,
        create: marks.create!,
        saved: marks.saved!,
      };
      log(
        `  phone: ${label}: first row ${ms(run.firstRow)}, Add Horse ${ms(write.addHorse)}, clicked ${ms(write.addClick)}, dialog ${ms(write.dialog)}, filled ${ms(write.filled)}, Create pressed ${ms(write.create)}, saved ${ms(write.saved)}; longest task ${longestOf(run)}${warmed}`,
      );
      logFrames(run, log);
      return write;
    };
    // (c') The first edit: the first row's Edit tapped as soon as it shows, its name changed and
    // Update Horse pressed at once; until saved: the outbox keeps it, and the data host
    // answers once its document has loaded (docs/web.md "The device outbox"), as it does a create.
    const editObserved = { profile: process.env.BENCH_PROFILE_EDIT, trace: process.env.BENCH_TRACE_EDIT };
    const firstEdit = async (label: string, begin: () => Promise<void>, observe: Observation = {}): Promise<FirstEdit> => {
      const { run, marks, warmed } = await actingStart('bench:first-edit', begin, observe, untilEdited);
      const edit = { run, tapped: marks.editClick!, pressed: marks.editPressed!, saved: marks.edited! };
      log(
        `  phone: ${label}: first row ${ms(run.firstRow)}, Edit tapped ${ms(edit.tapped)}, Update pressed ${ms(edit.pressed)}, saved ${ms(edit.saved)}; longest task ${longestOf(run)}${warmed}`,
      );
      logFrames(run, log);
      return edit;
    };
    const write = await firstWrite('first write', beforeStart, writeObserved);
    const edit = await firstEdit('first edit', beforeStart, editObserved);
    // (d) Both again, each in the browser started again (anew): the app's code compiled from
    // the browser's cache, no page before it to collect.
    // BENCH_TRACE_WRITE_ANEW, BENCH_PROFILE_EDIT_ANEW and the like observe these.
    const writeAnew = await firstWrite('first write, the app started anew', anew, {
      profile: process.env.BENCH_PROFILE_WRITE_ANEW,
      trace: process.env.BENCH_TRACE_WRITE_ANEW,
    });
    const editAnew = await firstEdit('first edit, the app started anew', anew, {
      profile: process.env.BENCH_PROFILE_EDIT_ANEW,
      trace: process.env.BENCH_TRACE_EDIT_ANEW,
    });

    // Once more after the runs (outside every start's window): the host's speed drifts. The
    // app's page leaves first, so its workers stop and do not share the cores with the score.
    await leaveApp(page, server.url);
    const after = await onBlankPage(context, async (blank, cdp) => ({
      page: await cpuIndex(blank, cdp, rate),
      worker: await workerIndex(blank),
    }));
    log(`  phone: the page's CPU index ${Math.round(after.page)} at ${rate}× after the runs, a worker's ${Math.round(after.worker)}`);
    if (confinement.confined && Number.isFinite(confinement.share())) {
      const { periods, throttled, throttledMs } = confinement.stat();
      log(`  phone: the quota stopped the browser in ${throttled} of ${periods} periods, ${ms(throttledMs)} in all`);
    }

    const rows = phoneRows({
      group,
      host,
      scored,
      confined,
      after,
      browser: browser.long,
      starts,
      keys,
      settledKey,
      write,
      edit,
      writeAnew,
      editAnew,
      firstSync: filled - signIn,
      sync,
      syncCpu,
      payments,
      care,
    });
    log(`  phone: row set ${Math.round((Date.now() - began) / 1000)} s`);
    return { rows, conditions: `page throttled to ${label}; ${browser.long}` };
  } finally {
    await profiles.closeAll();
    confinement.release();
  }
}
