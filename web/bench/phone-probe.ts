// The phone rows' probe (phone.ts): a script installed before the app's scripts that notes
// when the first row, Add Horse, the dialog and the saved toasts show, does the first write
// and edit on the page as a finger would, and hands the bench the page's long tasks and long
// animation frames; and the bench's reads of what it noted.
import type { Page } from 'playwright-core';
import { sleep } from '../../sync-server/bench/clients.ts';

export type Probe = {
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
export type AppWindow = {
  __phone: Probe;
  __frames: Frame[];
  __longTasks: [number, number, string?][];
  __ranch: {
    provider: { synced: boolean } | null;
    data: {
      loaded: Promise<void>;
      projection: { idle(): Promise<void> };
      db: {
        /** The ledger's payments, a row each (read database 17 on); absent in builds before (BENCH_WEB_DIR). */
        payments?: { count(): Promise<number> };
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
export const PROBE = `(() => {
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
export const formsWarmed = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('measure')
      .filter(({ name }) => name.startsWith('forms warmed: '))
      .map(({ name, duration }) => `${name.slice('forms warmed: '.length)} ${Math.round(duration)} ms`)
      .join(', '),
  );
export const pageNow = (page: Page) => page.evaluate(() => performance.now());

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Until the probe's first write is saved ('Horse created successfully'). */
export const untilSaved = (page: Page) => waitFor(async () => (await probe(page)).saved !== null, 120_000, 'the horse to be saved');
/** Until the probe's first edit is saved ('Horse updated successfully'). */
export const untilEdited = (page: Page) => waitFor(async () => (await probe(page)).edited !== null, 120_000, 'the edit to be saved');
