// The sale and payment forms on a phone (`BENCH_ONLY=phone-forms`; docs/performance.md
// "Reproduce"): on a phone (CPU 4×) whose start has settled on Sales, Create Sale tapped until
// its horse choice offers the ranch's unsold horses, a horse chosen until the sale price is
// filled, Cancel; then Record Payment tapped until its sale choice offers the open sales,
// Cancel. Each step's longest main-thread task and its time, over a few rounds. The bench
// ranch offers 5,000 unsold horses and 5,000 open sales there: what a person meets when
// selling a horse. A horse is chosen as the build offers it: picked from a select, or typed
// ("Comet 2") and tapped in a picker.
import type { Page } from 'playwright-core';
import { median } from '../../sync-server/bench/clients.ts';
import { ms, type Row } from '../../sync-server/bench/table.ts';
import { twoFrames } from '../e2e/support/restyles.ts';
import { browserProfiles } from './browser-profiles.ts';
import { tracePage } from './trace.ts';
import { waitFor } from './phone-probe.ts';
import { confineBrowsers } from './confined-browser.ts';
import { DEFAULT_RATE, leaveApp, openPhone, PHONE, signInAndSync, slowDown } from './phone-session.ts';
import { blocking, rounded, settle, type Task } from './phone-start.ts';

/** One step: tap → what it waits for (ms) and the longest task meanwhile. */
type Step = { time: number; longest: number };
type Round = { open: Step; choose: Step; payment: Step };

/** Runs `act`, then waits until `ready` holds on the page and two frames have rendered. */
async function step(page: Page, tasks: Task[], act: () => Promise<void>, ready: () => Promise<boolean>, what: string): Promise<Step> {
  const from = Date.now();
  await act();
  await waitFor(ready, 60_000, what);
  await twoFrames(page);
  const to = Date.now();
  // Long tasks are reported once they end; give the observer's binding a moment to deliver them.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
  return { time: to - from, longest: blocking(tasks, from, to).longest };
}

/**
 * The labelled field is there with what it offers: a select's options beyond its placeholder,
 * or a picker (a combobox; docs/web.md "Choices among thousands"), which the form shows once
 * its choices have been read.
 */
const offers = (page: Page, label: string) =>
  page.evaluate((label) => {
    const field = [...document.querySelectorAll<HTMLLabelElement>('dialog[open] label')].find((node) =>
      node.textContent?.trim().startsWith(label),
    );
    const control = field?.htmlFor ? document.getElementById(field.htmlFor) : null;
    if (control instanceof HTMLSelectElement) return control.options.length > 1;
    return control?.getAttribute('role') === 'combobox';
  }, label);

/**
 * Chooses a horse in the sale form as a person does: a select's option picked, or in a picker
 * a few letters of the name typed and the choice tapped once listed.
 */
const chooseHorse = (page: Page) =>
  page.evaluate(async () => {
    const control = document.querySelector('dialog[open] select, dialog[open] [role="combobox"]') as HTMLSelectElement | HTMLInputElement;
    if (control instanceof HTMLSelectElement) {
      control.value = control.options[Math.floor(control.options.length / 2)]!.value;
      control.dispatchEvent(new Event('input', { bubbles: true }));
      control.dispatchEvent(new Event('change', { bubbles: true }));
      return;
    }
    // A finger taps the field first: it has the focus before the typing (unfocused, the
    // picker's list focused it as it opened, a forced layout inside the typing's task).
    control.focus();
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    setValue.call(control, 'Comet 2'); // The bench ranch's horses are named 'Comet 28' and so on.
    control.dispatchEvent(new Event('input', { bubbles: true }));
    // No named function in here: tsx would wrap it in a helper the page does not have.
    const list = document.getElementById(control.getAttribute('aria-controls') ?? '')!;
    // The tap comes once the list has shown, in a task of its own, as a finger's does (in the
    // task that typed, the click joined the typing's render in one task).
    for (let frames = 0; !list.querySelector('[role="option"]'); frames++) {
      if (frames > 600) throw new Error('no horse listed for "Comet 2"');
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    }
    (list.querySelector('[role="option"]') as HTMLElement).click();
  });

/** Taps (a click as a finger would, no Playwright actionability round trips on the throttled page). */
const tap = (page: Page, name: string) =>
  page.evaluate((name) => {
    const button = [...document.querySelectorAll('button')].find((node) => node.textContent?.trim() === name && node.offsetParent);
    if (!button) throw new Error(`no button ${name}`);
    button.click();
  }, name);

async function round(page: Page, tasks: Task[], trace?: string): Promise<Round> {
  const open = await step(
    page,
    tasks,
    () => tap(page, 'Create Sale'),
    () => offers(page, 'Horse'),
    'the horse choice',
  );
  const choose = await step(
    page,
    tasks,
    () =>
      trace
        ? tracePage(
            page,
            trace,
            () => {},
            () => chooseHorse(page),
          )
        : chooseHorse(page),
    () => page.evaluate(() => document.querySelector('dialog[open]')?.textContent?.includes('Selected Horse Details') === true),
    'the horse details',
  );
  await tap(page, 'Cancel');
  await waitFor(async () => (await page.locator('dialog[open]').count()) === 0, 30_000, 'the sale form to close');
  const payment = await step(
    page,
    tasks,
    () => tap(page, 'Record Payment'),
    () => offers(page, 'Sale'),
    'the sale choice',
  );
  await tap(page, 'Cancel');
  await waitFor(async () => (await page.locator('dialog[open]').count()) === 0, 30_000, 'the payment form to close');
  return { open, choose, payment };
}

export async function phoneForms(url: string, log: (line: string) => void, { rounds }: { rounds: number }): Promise<Row[]> {
  // The whole browser confined as the phone rows' is (phone-session.ts slowDown), at the fixed rate.
  const confinement = confineBrowsers('ranch-bench-forms-');
  const profiles = browserProfiles('ranch-bench-forms-', confinement.executablePath);
  const runs: Round[] = [];
  let browser: string;
  try {
    const context = await profiles.launch(PHONE);
    const cpu = await slowDown(context, confinement, DEFAULT_RATE);
    browser = cpu.browser.short;
    log(
      `  forms: the page's CPU index ${Math.round(cpu.confined.page)} at ${DEFAULT_RATE}×, a worker's ${Math.round(cpu.confined.worker)}; ${cpu.browser.long}`,
    );
    const { page, tasks } = await openPhone(context, DEFAULT_RATE, log);
    await signInAndSync(page, url);
    await leaveApp(page, url);
    await page.goto(`${url}/sales`);
    await page.getByRole('button', { name: 'Create Sale' }).waitFor({ timeout: 120_000 });
    await settle(page);
    for (let i = 0; i < rounds; i++) {
      // BENCH_TRACE_FORMS=<file>: the second round's horse chosen, traced (web/bench/trace.ts).
      const run = await round(page, tasks, i === 1 ? process.env.BENCH_TRACE_FORMS : undefined);
      runs.push(run);
      log(
        `  forms: round ${i + 1}: Create Sale → horses offered ${ms(run.open.time)} (longest task ${ms(run.open.longest)}), a horse chosen → details ${ms(run.choose.time)} (${ms(run.choose.longest)}), Record Payment → sales offered ${ms(run.payment.time)} (${ms(run.payment.longest)})`,
      );
    }
  } finally {
    await profiles.closeAll();
    confinement.release();
  }
  const group = `Phone (CPU ${DEFAULT_RATE}×, ${browser}), the sale and payment forms`;
  const row = (figure: string, pick: (run: Round) => Step): Row => ({
    group,
    figure: `${figure}: time / longest task (medians)`,
    ours: `${ms(median(runs.map((run) => pick(run).time)))} / ${ms(median(runs.map((run) => pick(run).longest)))}`,
    note: `${runs.length} rounds; times ${rounded(runs, (run) => pick(run).time)} ms; longest ${rounded(runs, (run) => pick(run).longest)} ms`,
  });
  return [
    row('Create Sale tapped → the horses offered', (run) => run.open),
    row('a horse chosen → its details shown', (run) => run.choose),
    row('Record Payment tapped → the open sales offered', (run) => run.payment),
  ];
}
