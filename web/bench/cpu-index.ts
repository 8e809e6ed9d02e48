// How fast the phone row set's page computes, in the units of Lighthouse's BenchmarkIndex,
// which Chrome DevTools uses to calibrate its CPU throttling presets: "mid-tier mobile" is
// the rate at which a page scores 1000 (a Pixel 5), "low-tier mobile" 264 (a Moto G4 Power
// 2022). A fixed rate such as 4× slows whatever host the bench runs on by that factor, so
// the phone it emulates moves with the host; the score says which phone a run emulated
// (docs/performance.md "The host and the phone").
import { cpus } from 'node:os';
import type { CDPSession, Page } from 'playwright-core';
import { median } from '../../sync-server/bench/clients.ts';

export const MID_TIER = 1000;
export const LOW_TIER = 264;

/**
 * Runs in the page: half the time building a 10,000-character string one character at a
 * time (allocation and garbage collection), half copying 100,000 small integers between two
 * arrays (no garbage); each half's score is its rounds per second divided by ten, and the
 * index is their mean. The clock is read every tenth round only, so reading it costs little.
 * Source text rather than a function: the bench's TypeScript loader would name its inner
 * functions through a helper the page does not have.
 */
const SCORE_IN_PAGE = `(durationMs) => {
  const rate = (round) => {
    const began = performance.now();
    let rounds = 0;
    let elapsed = 0;
    while (elapsed < durationMs / 2) {
      for (let i = 0; i < 10; i++) round(rounds++);
      elapsed = performance.now() - began;
    }
    return Math.round(rounds / 10 / (elapsed / 1000));
  };
  const built = rate(() => {
    let text = '';
    for (let i = 0; i < 10000; i++) text += 'a';
    if (text.length !== 10000) throw new Error('unreachable: keeps the loop from being optimised away');
  });
  const first = Array.from({ length: 100000 }, (_, i) => i);
  const second = first.slice();
  const copied = rate((n) => {
    const from = n % 2 === 0 ? first : second;
    const to = n % 2 === 0 ? second : first;
    for (let i = 0; i < from.length; i++) to[i] = from[i];
  });
  return (built + copied) / 2;
}`;

/** The median of three scores at `rate` (a warm-up first, so the code is optimised). */
export async function cpuIndex(page: Page, cdp: CDPSession, rate: number): Promise<number> {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const run = () => page.evaluate<number>(`(${SCORE_IN_PAGE})(500)`);
  await run();
  return median([await run(), await run(), await run()]);
}

/**
 * The same score in a dedicated worker the page starts: the page's throttle never slows a
 * worker, so this is what the data worker's thread gets (a share of the CPU slows it,
 * confined-browser.ts). The median of three, after a warm-up.
 */
export async function workerIndex(page: Page): Promise<number> {
  const source = `const score = ${SCORE_IN_PAGE};\nonmessage = () => { score(500); postMessage([score(500), score(500), score(500)]); };`;
  const scores = await page.evaluate(
    (source) =>
      new Promise<number[]>((resolve, reject) => {
        const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
        worker.onmessage = (event) => {
          worker.terminate();
          resolve(event.data);
        };
        worker.onerror = (event) => reject(new Error(event.message));
        worker.postMessage(null);
      }),
    source,
  );
  return median(scores);
}

/**
 * The rate at which the page scores `target` (`host`: its score unthrottled), found by
 * halving the interval as DevTools' calibration does (the protocol keeps two decimals). The
 * score is not linear in the rate (here 4× scored 4.5 times less than 1×), so it is
 * searched, not divided.
 */
export async function calibratedRate(page: Page, cdp: CDPSession, host: number, target: number): Promise<number> {
  // A host slower than the phone cannot emulate it: unthrottled is the nearest.
  if (host <= target) return 1;
  let low = 1;
  let high = Math.max(2, (host / target) * 1.5);
  let rate = high;
  for (let step = 0; step < 8; step++) {
    rate = Number(((low + high) / 2).toFixed(2));
    const score = await cpuIndex(page, cdp, rate);
    if (Math.abs(score - target) < 10) break;
    if (score < target) high = rate;
    else low = rate;
  }
  return rate;
}

/**
 * The share of the CPU (in cores) at which a worker the page starts scores `target`, with the
 * page throttled to `rate` meanwhile: the throttle spins the page's thread, and that spinning
 * counts against the share as it does during the runs. Halving the interval between none and
 * every core, as calibratedRate does; `setShare` applies one. Infinity: even every core
 * leaves the worker below the target (a host slower than the phone, or a busy one).
 */
export async function calibratedShare(
  page: Page,
  cdp: CDPSession,
  rate: number,
  target: number,
  setShare: (cores: number) => void,
): Promise<number> {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const scoreAt = async (share: number) => {
    setShare(share);
    return workerIndex(page);
  };
  let low = 0.05;
  let high = cpus().length;
  if ((await scoreAt(high)) <= target) {
    setShare(Number.POSITIVE_INFINITY);
    return Number.POSITIVE_INFINITY;
  }
  let share = high;
  for (let step = 0; step < 8; step++) {
    share = Number(((low + high) / 2).toFixed(2));
    const score = await scoreAt(share);
    if (Math.abs(score - target) < target * 0.02) break;
    if (score < target) low = share;
    else high = share;
  }
  return share;
}

/** Runs `use` on a new blank page of the context (to score it), and closes the page after. */
export async function onBlankPage<T>(context: { newPage(): Promise<Page> }, use: (page: Page, cdp: CDPSession) => Promise<T>): Promise<T> {
  const page = await context.newPage();
  try {
    const cdp = await page.context().newCDPSession(page);
    return await use(page, cdp);
  } finally {
    await page.close();
  }
}
