// The phone row set of `npm run bench` (issue 12, "Measure it the way a phone feels it";
// docs/performance.md "Phone (CPU 4×)"): Chromium with the page's CPU throttled 4× through
// the DevTools protocol (Emulation.setCPUThrottlingRate, DevTools' mid-range-phone setting),
// a 390×844 touch viewport, on the bench ranch. Long tasks come from a
// PerformanceObserver({ type: 'longtask', buffered: true }) installed before the app's
// scripts (addInitScript), reported to the bench through a binding so a navigation loses none,
// and from a light trace of each start and the first sync for the tasks the observer never
// reports (a garbage collection's finish; main-thread-tasks.ts).
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { median, sleep } from '../../sync-server/bench/clients.ts';
import { BENCH_ADMIN } from '../../sync-server/bench/processes.ts';
import type { RanchServer } from '../../sync-server/bench/ranch.ts';
import { ms, type Row } from '../../sync-server/bench/table.ts';
import { browserProfiles } from './browser-profiles.ts';
import { collectorIndex } from './collector-index.ts';
import { calibratedRate, cpuIndex, LOW_TIER, MID_TIER, onBlankPage } from './cpu-index.ts';
import { profileMainThread } from './cpu-profile.ts';
import { profileDataWorker } from './worker-profile.ts';
import { heapFigures, heapInUse, mib, sampleAllocations, writeHeapSnapshot } from './heap.ts';
import { addUnseen, inTrace, isCollectorTask, withMainThreadTasks } from './main-thread-tasks.ts';
import { tracePage } from './trace.ts';

/** DevTools' mid-range-phone setting, issue 12's measure. */
export const DEFAULT_RATE = 4;
/** As web/e2e/ranch-screens-phone.test.ts: the card list, the drawer (device scale 1: raster is not the main thread's). */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
/** Issue 12's window for the total blocking time of a start. */
const WINDOW = 10_000;
/**
 * Sign-in to every table filled before the worker move: the lowest of the three runs of
 * 2026-11-23 (41.2, 32.8, 24.1 s; docs/performance.md "Phone (CPU 4×)"). Issue 12's target
 * is under half of it; the figure moves with the machine's load, so compare builds back to
 * back (BENCH_WEB_DIR) on a busy machine.
 */
const FIRST_SYNC_BEFORE_WORKER = 24_100;

export type Task = { start: number; duration: number };
type Probe = {
  firstRow: number | null;
  addHorse: number | null;
  /** Add Horse clicked (the event's time): the dialog's opening is dialog − addClick. */
  addClick: number | null;
  dialog: number | null;
  filled: number | null;
  create: number | null;
  saved: number | null;
  /** The first edit (armed by `bench:first-edit`): Edit tapped, Update Horse pressed, 'Horse updated successfully'. */
  editClick: number | null;
  editPressed: number | null;
  edited: number | null;
  keyAt: number | null;
  shownAt: number | null;
  /** The search box has taken the focus (armed by `bench:focus-search`). */
  focused: boolean;
  saving: boolean;
  /** Armed by the bench once the form is filled: the probe presses Create Horse at the first row. */
  pressCreate: boolean;
  /** The longest list the cards have given (aria-setsize), and when it showed. */
  listSize: number;
  listAt: number | null;
};
/** A long animation frame (over 50 ms) and the scripts in it, for BENCH_LOAF's log. */
export type Frame = {
  start: number;
  duration: number;
  /** From the frame's style and layout (or render) start to its end, ms; 0 when it had none. */
  styleAndLayout: number;
  render: number;
  scripts: { start: number; duration: number; invoker: string; fn: string; url: string; at: number; forced: number }[];
};
type AppWindow = {
  __phone: Probe;
  __frames: Frame[];
  __longTasks: [number, number, string?][];
  __ranch: {
    provider: { synced: boolean } | null;
    data: {
      loaded: Promise<void>;
      projection: { idle(): Promise<void> };
      db: {
        salePayments: { toArray(): Promise<{ payments: unknown[] }[]> };
        /** Care by horse since read database 13; a row per entry in builds before (BENCH_WEB_DIR). */
        horseCare?: { toArray(): Promise<{ entries: unknown[] }[]> };
        careEntries?: { count(): Promise<number> };
      };
    };
  };
};

/** The horse the first write saves: a name, and the three required lookups by label. */
const NEW_HORSE = { name: 'Phone Bench Horse', selects: { Breed: 'Quarter Horse', Color: 'Bay', Gender: 'Mare' } };

/**
 * Installed before the app's scripts. Times are performance.now() (ms since navigation);
 * long tasks go to the bench as [epoch start, duration]. The list checks run only while
 * something is awaited, so the probe adds little to the main thread it measures.
 *
 * The first write (armed by the bench through sessionStorage) is done here, on the page, as a
 * finger would: Add Horse tapped as soon as it is offered, the form filled as soon as its
 * fields and choices are there, Create Horse pressed at the first row. Each field takes its
 * value through the element's own setter, then its input and change events (React and
 * the form listen to those). Through Playwright, the taps and fills ran its actionability
 * checks and label queries on the throttled main thread and waited for round trips to a busy
 * page: ~0.3 s per tap and ~2 s for four fields, the bench's work and not the app's
 * (docs/performance.md).
 */
const PROBE = `(() => {
  const phone = (window.__phone = { firstRow: null, addHorse: null, addClick: null, dialog: null, filled: null, create: null, saved: null, editClick: null, editPressed: null, edited: null, keyAt: null, shownAt: null, focused: false, saving: false, pressCreate: false, listSize: 0, listAt: null });
  // Armed by the bench for the keystroke starts: the search box takes the focus as soon as it exists, with no round trip to a busy
  // page, in a task of its own as a tap would (focus() lays the page out: in the check that saw the first rows, that layout
  // joined the first rows' render in one task, which no finger can do).
  // (A blank page, such as the one the CPU is scored on, has no sessionStorage.)
  const armed = (key) => {
    try {
      return sessionStorage.getItem(key) === '1';
    } catch {
      return false;
    }
  };
  let focus = armed('bench:focus-search');
  let firstWrite = armed('bench:first-write');
  // Only an armed start's Add Horse is filled and created (ab-dialogs.ts opens and cancels it).
  const writing = firstWrite;
  let firstEdit = armed('bench:first-edit');
  // The form is filled, and the edit typed, in a task of their own once the dialog is ready, as
  // a finger would: in the check that saw the dialog open, the input events joined showModal's
  // restyle of the page in one task.
  let filling = false;
  let typing = false;
  const horse = ${JSON.stringify(NEW_HORSE)};
  // The long tasks go to the bench (epoch times) and stay on the page (BENCH_LOAF's log);
  // long animation frames with their scripts say what a long task ran, at no cost to the
  // page a trace would add.
  const longTasks = (window.__longTasks = []);
  const frames = (window.__frames = []);
  try {
    new PerformanceObserver((list) => {
      const entries = list.getEntries();
      for (const e of entries) longTasks.push([e.startTime, e.duration, e.name]);
      const tasks = entries.map((e) => [performance.timeOrigin + e.startTime, e.duration]);
      if (window.__benchLongTasks) window.__benchLongTasks(tasks);
    }).observe({ type: 'longtask', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const end = e.startTime + e.duration;
        frames.push({
          start: e.startTime,
          duration: e.duration,
          styleAndLayout: e.styleAndLayoutStart ? end - e.styleAndLayoutStart : 0,
          render: e.renderStart ? end - e.renderStart : 0,
          scripts: e.scripts.map((s) => ({ start: s.startTime, duration: s.duration, invoker: s.invoker, fn: s.sourceFunctionName, url: s.sourceURL.split('/').pop(), at: s.sourceCharPosition, forced: s.forcedStyleAndLayoutDuration })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {}
  const list = () => document.querySelector('[aria-label="Horses"]');
  const toastSays = (text) => (document.querySelector('.toast')?.textContent ?? '').includes(text);
  // Horse names in the cards (phones) or table rows (desks); the colour below a name is not part of it.
  const names = (root) => [...root.querySelectorAll(':scope > li .font-semibold .font-semibold, tr[data-row] .font-semibold')].map((n) => n.textContent.toLowerCase());
  const check = (window.__phoneCheck = () => {
    const now = performance.now();
    const root = list();
    if (focus) {
      const input = document.querySelector('input[type="search"]');
      if (input) {
        focus = false;
        setTimeout(() => {
          input.focus();
          phone.focused = true;
        });
      }
    }
    if (phone.firstRow === null && root && root.querySelector(':scope > li, tr[data-row]')) phone.firstRow = now;
    // The list's length as the cards give it (aria-setsize), and when it last grew: the whole list is in when it is the ranch's.
    const size = Number(root?.querySelector(':scope > li')?.getAttribute('aria-setsize') ?? 0);
    if (size > phone.listSize) {
      phone.listSize = size;
      phone.listAt = now;
    }
    if (phone.addHorse === null && [...document.querySelectorAll('button.btn-primary')].some((b) => b.textContent.trim() === 'Add Horse')) phone.addHorse = now;
    if (phone.dialog === null && document.querySelector('dialog[open]')) phone.dialog = now;
    if (phone.keyAt !== null && phone.shownAt === null && root) {
      const input = document.querySelector('input[type="search"]');
      const needle = input ? input.value.trim().toLowerCase() : '';
      const shown = names(root);
      if (needle && shown.length > 0 && shown.every((name) => name.includes(needle))) phone.shownAt = now;
    }
    if (firstWrite && phone.addHorse !== null) {
      firstWrite = false;
      const add = [...document.querySelectorAll('button.btn-primary')].find((b) => b.textContent.trim() === 'Add Horse');
      setTimeout(() => add.click());
    }
    const form = writing && phone.addClick !== null && phone.filled === null && !filling ? horseForm() : null;
    if (form) {
      filling = true;
      setTimeout(() => {
        fillHorse(form);
        phone.filled = performance.now();
        phone.pressCreate = true;
        check();
      });
    }
    if (phone.pressCreate && phone.firstRow !== null) {
      const create = [...document.querySelectorAll('dialog[open] button')].find((b) => b.textContent.trim() === 'Create Horse');
      if (create) {
        phone.pressCreate = false;
        phone.saving = true;
        setTimeout(() => create.click());
      }
    }
    if (phone.saving && phone.saved === null && toastSays('Horse created successfully')) phone.saved = now;
    // The first edit (armed by bench:first-edit): the first row's Edit tapped as soon as it shows, its name changed, Update Horse pressed.
    const edit = firstEdit && root ? root.querySelector('button[aria-label="Edit"]') : null;
    if (edit) {
      firstEdit = false;
      setTimeout(() => {
        phone.editClick = performance.now();
        edit.click();
      });
    }
    if (phone.editClick !== null && phone.editPressed === null && !typing) {
      const dialog = document.querySelector('dialog[open]');
      const name = dialog && field(dialog, 'Name');
      const update = dialog && [...dialog.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Update Horse');
      if (name instanceof HTMLInputElement && name.value && update) {
        typing = true;
        setTimeout(() => {
          set(name, name.value + ' Edited');
          phone.editPressed = performance.now();
          setTimeout(() => update.click());
        });
      }
    }
    if (phone.editPressed !== null && phone.edited === null && toastSays('Horse updated successfully')) phone.edited = now;
  });
  document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type === 'search') {
      // When the key was pressed, not when the page got round to it: a busy main thread counts.
      phone.keyAt = event.timeStamp;
      phone.shownAt = null;
    }
  }, true);
  document.addEventListener('click', (event) => {
    const label = event.target instanceof Element ? event.target.closest('button')?.textContent.trim() : undefined;
    if (label === 'Create Horse') phone.create = event.timeStamp;
    if (label === 'Add Horse' && phone.addClick === null) phone.addClick = event.timeStamp;
  }, true);
  // The form's fields by their labels' text.
  const field = (dialog, label) => {
    const element = [...dialog.querySelectorAll('label[for]')].find((node) => node.firstChild?.textContent?.trim() === label);
    return element ? document.getElementById(element.getAttribute('for')) : null;
  };
  const set = (element, value) => {
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element), 'value').set.call(element, value);
    element.dispatchEvent(new Event('input', { bubbles: true }));
    element.dispatchEvent(new Event('change', { bubbles: true }));
  };
  // The open form's name field and the choices to make; null until the dialog, its fields and choices are there.
  const horseForm = () => {
    const dialog = document.querySelector('dialog[open]');
    const name = dialog && field(dialog, 'Name');
    if (!(name instanceof HTMLInputElement)) return null;
    const selects = Object.entries(horse.selects).map(([label, text]) => {
      const select = field(dialog, label);
      return { select, option: select instanceof HTMLSelectElement ? [...select.options].find((node) => node.text === text) : undefined };
    });
    return selects.some(({ option }) => !option) ? null : { name, selects };
  };
  const fillHorse = ({ name, selects }) => {
    set(name, horse.name);
    for (const { select, option } of selects) set(select, option.value);
  };
  const observer = new MutationObserver(check);
  const start = () => observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true, attributeFilter: ['open', 'aria-setsize'] });
  if (document.documentElement) start(); else document.addEventListener('DOMContentLoaded', start);
})();`;

export const probe = (page: Page) => page.evaluate(() => (window as unknown as AppWindow).__phone);

/** The forms' warm-up steps of the page's start, as lib/warm-forms.ts notes them, in order ("" if none ran). */
const formsWarmed = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('measure')
      .filter(({ name }) => name.startsWith('forms warmed: '))
      .map(({ name, duration }) => `${name.slice('forms warmed: '.length)} ${Math.round(duration)} ms`)
      .join(', '),
  );
const pageNow = (page: Page) => page.evaluate(() => performance.now());

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * Throttles the page's renderer main thread (kept across navigations: measured) and tries
 * every worker the page starts. Chromium 156 answers "Operation is only supported for pages,
 * not workers" for a dedicated worker: work moved into one runs at the machine's full speed
 * here, which the log says (docs/performance.md "Phone (CPU 4×)"). Resolves with the page's
 * `Pace`: the session stays open, as closing it would end the throttling.
 */
async function throttle(page: Page, rate: number, log: (line: string) => void): Promise<Pace> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  let id = 0;
  const throttles = new Map<number, string>();
  cdp.on('Target.attachedToTarget', ({ sessionId, targetInfo, waitingForDebugger }) => {
    const send = (method: string, params: object = {}) => {
      id += 1;
      if (method === 'Emulation.setCPUThrottlingRate') throttles.set(id, `${targetInfo.type} ${targetInfo.url.slice(0, 80)}`);
      return cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(() => {});
    };
    void send('Emulation.setCPUThrottlingRate', { rate }).then(() => waitingForDebugger && send('Runtime.runIfWaitingForDebugger'));
  });
  cdp.on('Target.receivedMessageFromTarget', ({ message }) => {
    const answer = JSON.parse(message) as { id?: number; error?: { message: string } };
    const target = answer.id === undefined ? undefined : throttles.get(answer.id);
    if (target) log(`  phone: ${target} ${answer.error ? `NOT throttled (${answer.error.message})` : `throttled ${rate}×`}`);
  });
  // Not flattened: Playwright's sessions cannot address a child session; this one relays.
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  return async (next) => {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: next });
  };
}

/**
 * Sets the page's renderer to another CPU rate (the last rate set holds for the renderer).
 * Chromium's throttling spins the throttled thread, so a throttled page costs most of a core
 * even while it shows nothing: 0.9 of a core at 4×, idle, against 0.0 at 1× (measured). A
 * phone that waits while another starts (ab-starts.ts) is set to 1× meanwhile.
 */
export type Pace = (rate: number) => Promise<void>;

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
const within = <T extends Task>(tasks: T[], from: number, to: number): T[] =>
  tasks.filter((task) => task.start + task.duration > from && task.start < to);

/** A start's longest task and when it began, for the log: "92 ms at 1620 ms". */
const longestOf = (run: Start) => `${ms(run.whole.longest)} at ${ms(run.whole.longestAt)}`;

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
      ? describe(frame)
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
    ...unseen.map(({ start, duration, postedBy }): [number, number, string] => [start - origin, duration, `traced, ${postedBy}`]),
  );
  const end = Math.max(settled, WINDOW) + origin;
  return {
    ...value,
    window: blocking(tasks, origin, origin + WINDOW),
    whole: blocking(tasks, origin, end),
    frames,
    longTasks,
    unseen: traced ? blocking(unseen, origin, end).count : null,
    gc: traced ? blocking(traced.all.filter(isCollectorTask), origin, end).longest : null,
  };
}

/** Until the probe's first write is saved ('Horse created successfully'). */
export const untilSaved = (page: Page) => waitFor(async () => (await probe(page)).saved !== null, 120_000, 'the horse to be saved');
/** Until the probe's first edit is saved ('Horse updated successfully'). */
export const untilEdited = (page: Page) => waitFor(async () => (await probe(page)).edited !== null, 120_000, 'the edit to be saved');

/** Files to take a start's CPU profile or trace into, when asked (BENCH_PROFILE_*, BENCH_TRACE_*). */
type Observation = { profile?: string; trace?: string };

/** `run` under the sampling profiler or traced, as `observe` asks (the profile wins), or plainly. */
function observed<T>(page: Page, observe: Observation, log: (line: string) => void, run: () => Promise<T>): Promise<T> {
  if (observe.profile) return profileMainThread(page, observe.profile, log, run);
  if (observe.trace) return tracePage(page, observe.trace, log, run);
  return run();
}

/** A first write's start and its moments (ms after its navigation): PROBE's marks. */
type FirstWrite = { run: Start; addHorse: number; addClick: number; dialog: number; filled: number; create: number; saved: number };
/** A first edit's start and its moments (ms after its navigation). */
type FirstEdit = { run: Start; tapped: number; pressed: number; saved: number };

/**
 * The CPU rate: `BENCH_PHONE_RATE` as a number, or `mid-tier` / `low-tier` for the rate at
 * which this host's page scores as DevTools' calibrated presets do (web/bench/cpu-index.ts);
 * 4× when unset.
 */
export async function chooseRate(page: Page, cdp: CDPSession, host: number): Promise<{ rate: number; label: string }> {
  const asked = process.env.BENCH_PHONE_RATE ?? String(DEFAULT_RATE);
  if (asked === 'mid-tier' || asked === 'low-tier') {
    const rate = await calibratedRate(page, cdp, host, asked === 'mid-tier' ? MID_TIER : LOW_TIER);
    return { rate, label: `CPU ${rate}×, ${asked}` };
  }
  const rate = Number(asked);
  if (!(rate >= 1)) throw new Error(`BENCH_PHONE_RATE: a rate of 1 or more, mid-tier or low-tier, not "${asked}"`);
  return { rate, label: `CPU ${rate}×` };
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

/**
 * The page shows a page of the app's origin that is not the app (the service worker hands
 * /api to the network; this one answers 404): the app's workers stop, and the next start is
 * a navigation in the same renderer process, as a start from the app is.
 */
export async function leaveApp(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/api/bench-not-the-app`);
}

/**
 * A start in a new tab (BENCH_NEW_TAB=1): the tab before is closed and a new one opened,
 * throttled as the first was. In the tab of the start before (a reload, the default), the
 * new page's garbage collections also free the old page's heap: in a run's second start, a
 * task of 74–240 ms at 4× some seconds in (docs/performance.md "The page's heap; the page
 * before, collected"). Chromium does not always give the new tab a renderer of its own (its
 * heap on the small page below was 8–23 MiB in some starts where a new renderer's is 0.8
 * MiB), so this is not a start from the home screen after the phone closed the app. The new
 * tab shows a small page of the app's origin first, where it takes the bench's arming keys
 * (`bench:` in sessionStorage, which is a tab's own).
 */
export async function inNewTab(page: Page, url: string, rate: number, log: (line: string) => void): Promise<{ page: Page; pace: Pace }> {
  const armed = await armedKeys(page);
  const context = page.context();
  await page.close();
  const tab = await context.newPage();
  tab.on('pageerror', (error) => log(`  page error: ${error.message.slice(0, 300)}`));
  const pace = await throttle(tab, rate, () => {});
  await arm(tab, url, armed);
  return { page: tab, pace };
}

/**
 * A start of a browser started again on the same profile (BENCH_COLD=1), as a phone starts
 * the app after the system closed it: a new renderer, the service worker not running, the
 * app's code read from its cache and its functions compiled again (docs/performance.md "The
 * inspector's stack traces; modules compiled anew in every renderer"); the start navigates
 * from the new tab's blank page. `restart` closes the page's browser and launches it again
 * on its profile. The arming keys are set by a script that runs before the app's
 * (sessionStorage is the tab's). The long tasks keep gathering in `tasks`.
 */
export async function inNewBrowser(
  page: Page,
  restart: (context: BrowserContext) => Promise<BrowserContext>,
  rate: number,
  tasks: Task[],
  log: (line: string) => void,
): Promise<Phone & { context: BrowserContext }> {
  const armed = await armedKeys(page);
  const context = await restart(page.context());
  // Before the probe's script, which reads them.
  await context.addInitScript((keys) => {
    if (location.origin !== 'null') for (const [key, value] of keys) sessionStorage.setItem(key, value);
  }, armed);
  return { context, ...(await openPhone(context, rate, log, tasks, () => {})) };
}

/** The bench's arming keys (`bench:` in sessionStorage, a tab's own) of the page's origin. */
const armedKeys = (page: Page) => page.evaluate(() => Object.entries(sessionStorage).filter(([key]) => key.startsWith('bench:')));

/** A new tab on a small page of the app's origin, given the keys of the tab before. */
async function arm(page: Page, url: string, keys: [string, string][]): Promise<void> {
  await leaveApp(page, url);
  await page.evaluate((keys) => {
    for (const [key, value] of keys) sessionStorage.setItem(key, value);
  }, keys);
}

/** A phone's page, its long tasks, and its CPU rate's setter. */
export type Phone = { page: Page; tasks: Task[]; pace: Pace };

/**
 * The probe installed in `context`, its page throttled to `rate` (what the throttling answered
 * to `throttled`); the page's long tasks gather in `tasks`.
 */
export async function openPhone(
  context: BrowserContext,
  rate: number,
  log: (line: string) => void,
  tasks: Task[] = [],
  throttled = log,
): Promise<Phone> {
  await context.exposeBinding('__benchLongTasks', (_source, list: [number, number][]) => {
    for (const [start, duration] of list) tasks.push({ start, duration });
  });
  await context.addInitScript(PROBE);
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => log(`  page error: ${error.message.slice(0, 300)}`));
  const pace = await throttle(page, rate, throttled);
  return { page, tasks, pace };
}

/**
 * A new device signs in: from Sign In clicked until the socket has synced and the projection
 * is idle (epoch ms), then the service worker ready and two seconds for y-indexeddb and the
 * projection to settle, as chromium.ts does. `signedIn`: the browser already holds a session
 * the server accepts (ab-starts.ts: cookies go by host, not port, and every build's server
 * there uses one database), so the app opens signed in and syncs from the page load.
 */
export async function signInAndSync(page: Page, url: string, { signedIn = false } = {}): Promise<{ signIn: number; filled: number }> {
  await page.goto(url);
  if (!signedIn) {
    await page.getByRole('button', { name: 'Sign In to Continue' }).click({ timeout: 60_000 });
    await page.getByLabel('Email').fill(BENCH_ADMIN.email);
    await page.getByLabel('Password').fill(BENCH_ADMIN.password);
  }
  const signIn = Date.now();
  if (!signedIn) await page.getByRole('button', { name: 'Sign In' }).click();
  await waitFor(() => page.evaluate(() => (window as unknown as AppWindow).__ranch?.provider?.synced === true), 600_000, 'the first sync');
  await page.evaluate(() => (window as unknown as AppWindow).__ranch.data.projection.idle());
  const filled = Date.now();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await sleep(2000);
  return { signIn, filled };
}

export async function phoneBench(server: RanchServer, log: (line: string) => void, options: { quick: boolean }): Promise<Row[]> {
  const rows: Row[] = [];
  const profiles = browserProfiles('ranch-bench-phone-');
  const began = Date.now();
  try {
    let context = await profiles.launch(PHONE);
    // Before the probe is installed: its long-task observer would report the scoring's tasks.
    const { rate, label, host, scored, collector } = await onBlankPage(context, async (blank, cdp) => {
      const host = await cpuIndex(blank, cdp, 1);
      const collector = await collectorIndex(blank, cdp);
      const chosen = await chooseRate(blank, cdp, host);
      return { ...chosen, host, collector, scored: await cpuIndex(blank, cdp, chosen.rate) };
    });
    log(
      `  phone: the page's CPU index ${Math.round(scored)} at ${rate}×, ${Math.round(host)} unthrottled; a heap like a start's made in ${ms(collector.made)} and collected in ${ms(collector.collected)}, unthrottled`,
    );
    const group = `Phone (${label})`;
    const opened = await openPhone(context, rate, log);
    const { tasks } = opened;
    let { page } = opened;

    // (d) and (a) A first sync: a new device signs in; until every table is filled.
    const firstSync = async () => {
      const run = () => signInAndSync(page, server.url);
      const trace = process.env.BENCH_TRACE_SYNC;
      if (trace) return tracePage(page, trace, log, run);
      const profile = process.env.BENCH_PROFILE_SYNC;
      if (profile) return profileDataWorker(context, profile, log, run);
      // The signed-in document's tasks only the trace saw join the first sync's (main-thread-tasks.ts).
      const { value, traced } = await withMainThreadTasks(page, run);
      const unseen = addUnseen(tasks, traced?.long ?? []);
      const inside = within(unseen, value.signIn, value.filled);
      const named = inside.map((task) => `${ms(task.duration)} at ${ms(task.start - value.signIn)}, ${task.postedBy}`);
      log(
        `  phone: first sync traced: ${traced ? `${inside.length} long tasks seen only in the trace${named.length ? ` (${named.join('; ')})` : ''}` : 'no navigation found'}`,
      );
      return value;
    };
    const { signIn, filled } = await firstSync();
    const { payments, care } = await page.evaluate(async () => {
      const { db } = (window as unknown as AppWindow).__ranch.data;
      const payments = (await db.salePayments.toArray()).reduce((sum, row) => sum + row.payments.length, 0);
      const care = db.horseCare
        ? (await db.horseCare.toArray()).reduce((sum, row) => sum + row.entries.length, 0)
        : ((await db.careEntries?.count()) ?? 0);
      return { payments, care };
    });
    await sleep(2000); // the count is one long read: settled before the first start
    const sync = blocking(tasks, signIn, filled);
    log(
      `  phone: first sync, sign-in → every table ${ms(filled - signIn)} (${payments} payments, ${care} care entries); ${sync.count} long tasks, longest ${ms(sync.longest)}, blocking ${ms(sync.tbt)}`,
    );

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
    const keys: { delay: number; pressed: number; latency: number; run: Start }[] = [];
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
    // Update Horse pressed at once; until saved. The page stages it while the data worker
    // loads (docs/web.md "Edits during a start"), as it does a create.
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
    // the browser's cache, no page before it to collect (docs/performance.md "Starts anew in the phone rows").
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
    const scoredAfter = await onBlankPage(context, (blank, cdp) => cpuIndex(blank, cdp, rate));
    log(`  phone: the page's CPU index ${Math.round(scoredAfter)} at ${rate}× after the runs`);

    // Issue 12: no task over 100 ms "during a start", so the worst start counts, not the median.
    const longest = Math.max(...starts.map((run) => run.whole.longest));
    const tbt = Math.max(...starts.map((run) => run.window.tbt));
    const firstRow = median(starts.map((run) => run.firstRow));
    const startsAs = (summary: 'worst' | 'median') => (starts.length === 1 ? 'one start' : `${summary} of ${starts.length} starts`);
    const runs = startsAs('worst');
    const each = (pick: (run: Start) => number) => rounded(starts, pick);
    // The starts where something was done: a key each, the first write and the first edit.
    const acting = [
      ...keys.map((key) => ({ what: `key at first row + ${Math.round(key.delay / 1000)} s`, run: key.run })),
      { what: 'first write', run: write.run },
      { what: 'first edit', run: edit.run },
      { what: 'first write anew', run: writeAnew.run },
      { what: 'first edit anew', run: editAnew.run },
    ];
    const actingLongest = Math.max(...acting.map(({ run }) => run.whole.longest));
    const actingTbt = Math.max(...acting.map(({ run }) => run.window.tbt));
    const worstKey = Math.max(...keys.map((key) => key.latency));
    rows.push(
      {
        group,
        figure: "the page's CPU index (Lighthouse's BenchmarkIndex), before / after the runs",
        ours: `${Math.round(scored)} / ${Math.round(scoredAfter)}`,
        note: `${Math.round(host)} unthrottled before; DevTools' mid-tier mobile (a Pixel 5) scores ${MID_TIER}, low-tier ${LOW_TIER}: which phone this host emulated`,
      },
      {
        group,
        figure: 'start, data on the device: longest main-thread task',
        ours: ms(longest),
        target: '≤ 100 ms',
        met: longest <= 100,
        note: `${runs} (${each((run) => run.whole.longest)} ms), navigation → document loaded, projection idle`,
      },
      {
        group,
        figure: 'start with a key, the first write or edit: longest task / blocking, first 10 s',
        ours: `${ms(actingLongest)} / ${ms(actingTbt)}`,
        target: '≤ 100 ms / < 300 ms',
        met: actingLongest <= 100 && actingTbt < 300,
        note: `worst of ${acting.length} starts: ${acting.map(({ what, run }) => `${what} ${Math.round(run.whole.longest)} / ${Math.round(run.window.tbt)} ms`).join('; ')}`,
      },
      {
        group,
        figure: 'start, data on the device: total blocking time, first 10 s',
        ours: ms(tbt),
        target: '< 300 ms',
        met: tbt < 300,
        note: `${runs} (${each((run) => run.window.tbt)} ms); whole start ${each((run) => run.whole.tbt)} ms`,
      },
      {
        group,
        figure: 'start, data on the device: first horse row',
        ours: ms(firstRow),
        note: `${startsAs('median')}; Add Horse offered at ${each((run) => run.addHorse ?? Number.NaN)} ms`,
      },
      {
        group,
        figure: 'first sync: longest main-thread task',
        ours: ms(sync.longest),
        target: '≤ 100 ms',
        met: sync.longest <= 100,
        note: `sign-in → every table; ${sync.count} tasks over 50 ms, blocking ${ms(sync.tbt)}`,
      },
      {
        group,
        figure: 'search keystroke → filtered list, document loading (worst)',
        ours: ms(worstKey),
        target: '< 100 ms',
        met: worstKey < 100,
        note: `pressed at first row ${keys.map((key) => `${key.pressed >= 0 ? '+' : '−'} ${Math.abs(Math.round(key.pressed))} ms: ${Math.round(key.latency)} ms`).join('; ')}`,
      },
      {
        group,
        figure: 'search keystroke → filtered list, document loaded',
        ours: ms(settledKey),
        target: '< 100 ms',
        met: settledKey < 100,
        note: 'key "S" once the start has settled',
      },
      {
        group,
        figure: 'first write: navigation → horse saved',
        ours: ms(write.saved),
        note: `Add Horse offered at ${ms(write.addHorse)}, first row at ${ms(write.run.firstRow)}`,
      },
      {
        group,
        figure: 'first write: first horse row → horse saved',
        ours: ms(write.saved - write.run.firstRow),
        target: '< 1 s',
        met: write.saved - write.run.firstRow < 1000,
        note: `navigation → Add Horse ${ms(write.addHorse)}, Create pressed ${ms(write.create)}, saved ${ms(write.saved)}; the form filled while the list loads, Create pressed at the first row`,
      },
      {
        group,
        figure: 'first write: Create pressed → horse saved',
        ours: ms(write.saved - write.create),
        target: '< 1 s',
        met: write.saved - write.create < 1000,
        note: `during the start: Create pressed at ${ms(write.create)}, the first row at ${ms(write.run.firstRow)}`,
      },
      {
        group,
        figure: 'first edit: first horse row → horse saved',
        ours: ms(edit.saved - edit.run.firstRow),
        target: '< 1 s',
        met: edit.saved - edit.run.firstRow < 1000,
        note: `Edit tapped at ${ms(edit.tapped)}, Update pressed at ${ms(edit.pressed)}, saved ${ms(edit.saved)} (first row ${ms(edit.run.firstRow)}); staged by the page during the load (docs/web.md "Edits during a start")`,
      },
      {
        group,
        figure: 'first write, the app started anew: first horse row → horse saved',
        ours: ms(writeAnew.saved - writeAnew.run.firstRow),
        target: '< 1 s',
        met: writeAnew.saved - writeAnew.run.firstRow < 1000,
        note: `the browser started again: Add Horse offered at ${ms(writeAnew.addHorse)}, dialog open ${ms(writeAnew.dialog - writeAnew.addClick)} after the tap, Create pressed at ${ms(writeAnew.create)}, saved ${ms(writeAnew.saved)} (first row ${ms(writeAnew.run.firstRow)})`,
      },
      {
        group,
        figure: 'first edit, the app started anew: first horse row → horse saved',
        ours: ms(editAnew.saved - editAnew.run.firstRow),
        target: '< 1 s',
        met: editAnew.saved - editAnew.run.firstRow < 1000,
        note: `the browser started again: Edit tapped at ${ms(editAnew.tapped)}, Update pressed at ${ms(editAnew.pressed)}, saved ${ms(editAnew.saved)} (first row ${ms(editAnew.run.firstRow)})`,
      },
      {
        group,
        figure: 'first sync: sign-in → every table filled',
        ours: ms(filled - signIn),
        target: `< ${ms(FIRST_SYNC_BEFORE_WORKER / 2)}`,
        met: filled - signIn < FIRST_SYNC_BEFORE_WORKER / 2,
        note: `${payments} payments, ${care} care entries; target: half of ${ms(FIRST_SYNC_BEFORE_WORKER)} (before the worker move)`,
      },
    );
    log(`  phone: row set ${Math.round((Date.now() - began) / 1000)} s`);
  } finally {
    await profiles.closeAll();
  }
  return rows;
}
