// A phone's browser and page for the phone rows (phone.ts): its CPU throttled, the probe
// installed, new tabs and browsers started again on its profile, a new device's sign-in.
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { sleep } from '../../sync-server/bench/clients.ts';
import { BENCH_ADMIN } from '../../sync-server/bench/processes.ts';
import { type Confinement, cores } from './confined-browser.ts';
import { calibratedRate, calibratedShare, cpuIndex, LOW_TIER, MID_TIER, onBlankPage, workerIndex } from './cpu-index.ts';
import { type ListCounts, untilListsFilled } from './lists-filled.ts';
import { type AppWindow, PROBE, waitFor } from './phone-probe.ts';
import type { Task } from './phone-start.ts';

/** DevTools' mid-range-phone setting, issue 12's measure. */
export const DEFAULT_RATE = 4;
/** As web/e2e/ranch-screens-phone.test.ts: the card list, the drawer (device scale 1: raster is not the main thread's). */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * Throttles the page's renderer main thread (kept across navigations: measured) and tries
 * every worker the page starts. Chromium 156 answers "Operation is only supported for pages,
 * not workers" for a dedicated worker: work moved into one runs at the machine's full speed
 * here, which the log says (docs/performance.md "The host and the phone"). Resolves with the page's
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
 * The whole browser's share of the CPU, in cores, set on `confinement`: `BENCH_PHONE_SHARE` as
 * a number of cores, or (unset) the share at which a worker the page starts scores `target`,
 * what the page scored at `rate` with the browser unconfined (cpu-index.ts calibratedShare):
 * the data worker slowed about as much as the page. Infinity: no share slows it that much.
 */
export async function chooseShare(
  page: Page,
  cdp: CDPSession,
  confinement: { setShare(cores: number): void },
  rate: number,
  target: number,
): Promise<number> {
  const asked = process.env.BENCH_PHONE_SHARE;
  if (asked === undefined) return calibratedShare(page, cdp, rate, target, confinement.setShare);
  const cores = Number(asked);
  if (!(cores > 0)) throw new Error(`BENCH_PHONE_SHARE: a number of cores above 0, or none, not "${asked}"`);
  confinement.setShare(cores);
  return cores;
}

/** How a phone is made of the host: the page's rate, the browser's share, and the scores that chose them. */
export type PhoneCpu = {
  rate: number;
  label: string;
  /** The page's CPU index unthrottled, and at `rate` with the browser unconfined. */
  host: number;
  scored: number;
  /** The page's and a worker's CPU index as the runs have them: the page throttled, the browser confined. */
  confined: { page: number; worker: number };
  /** What the browser was confined to: for the rows' group (short) and the notes and header (long). */
  browser: { short: string; long: string };
};

/**
 * On a blank page of `context` (a browser launched as `confinement` says): the page's rate
 * (chooseRate, or `fixedRate`) and then the whole browser's share (chooseShare), so that
 * workers are slowed about as much as the page (docs/performance.md "The host and the phone").
 */
export async function slowDown(context: BrowserContext, confinement: Confinement, fixedRate?: number): Promise<PhoneCpu> {
  return onBlankPage(context, async (blank, cdp) => {
    const host = await cpuIndex(blank, cdp, 1);
    const chosen = fixedRate ? { rate: fixedRate, label: `CPU ${fixedRate}×` } : await chooseRate(blank, cdp, host);
    const scored = await cpuIndex(blank, cdp, chosen.rate);
    const share = confinement.confined ? await chooseShare(blank, cdp, confinement, chosen.rate, scored) : null;
    const confined = { page: await cpuIndex(blank, cdp, chosen.rate), worker: await workerIndex(blank) };
    return { ...chosen, host, scored, confined, browser: describeBrowser(confinement, share) };
  });
}

function describeBrowser(confinement: Confinement, share: number | null): { short: string; long: string } {
  if (!confinement.confined) return { short: 'browser not confined', long: `browser not confined: ${confinement.reason}` };
  if (share === null || !Number.isFinite(share)) {
    return {
      short: 'browser not confined',
      long: "browser not confined: a worker scored below the page's throttled score even with every core (a host slower than the phone, or a busy one)",
    };
  }
  const how = process.env.BENCH_PHONE_SHARE ? 'BENCH_PHONE_SHARE' : 'calibrated: a worker scores as the page does';
  return {
    short: `browser ${share.toFixed(2)} cores`,
    long: `the whole browser confined to ${cores(share)} (a cgroup v1 CPU quota, ${how})`,
  };
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
 * long task some seconds in. Chromium does not always give the new tab a renderer of its own (its
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
 * app's code read from its cache and its functions compiled again; the start navigates
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
 * A new device signs in: from Sign In clicked until every list is filled (`lists`, the
 * seeded ranch's counts; lists-filled.ts), or without `lists` until the socket has synced
 * and the projection is idle (epoch ms); then the socket synced and the projection idle in
 * any case, the service worker ready and two seconds for y-indexeddb and the projection to
 * settle, as chromium.ts does. `signedIn`: the browser already holds a session the server
 * accepts (ab-starts.ts: cookies go by host, not port, and every build's server there uses
 * one database), so the app opens signed in and syncs from the page load.
 */
export async function signInAndSync(
  page: Page,
  url: string,
  { signedIn = false, lists }: { signedIn?: boolean; lists?: ListCounts } = {},
): Promise<{ signIn: number; filled: number }> {
  await page.goto(url);
  if (!signedIn) {
    await page.getByRole('button', { name: 'Sign In to Continue' }).click({ timeout: 60_000 });
    await page.getByLabel('Email').fill(BENCH_ADMIN.email);
    await page.getByLabel('Password').fill(BENCH_ADMIN.password);
  }
  const signIn = Date.now();
  if (!signedIn) await page.getByRole('button', { name: 'Sign In' }).click();
  const listsFilled = lists && (await untilListsFilled(page, lists, 600_000));
  await waitFor(() => page.evaluate(() => (window as unknown as AppWindow).__ranch?.provider?.synced === true), 600_000, 'the first sync');
  await page.evaluate(() => (window as unknown as AppWindow).__ranch.data.projection.idle());
  const filled = listsFilled ?? Date.now();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await sleep(2000);
  return { signIn, filled };
}
