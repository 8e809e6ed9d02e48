import { yieldToBrowser } from '../data/time-slices.ts';
import { afterNextFrame } from './after-next-frame.ts';
import { warmIcu } from './warm-icu.ts';

let warmed: Promise<void> | undefined;

/**
 * What a form's controls look like to the browser, never shown: a title, a field's label, a
 * text field, the date field, a choice, a note and the footer's buttons, as the app's forms
 * draw them (FormField, Modal). Their text is one word: the fonts are what is warmed.
 */
const SAMPLE =
  '<h2 class="text-lg font-bold">Ranch</h2>' +
  '<div class="fieldset py-1"><label class="fieldset-legend pb-1">Ranch<span class="text-error"> *</span></label>' +
  '<input class="input w-full" value="Ranch"><select class="select w-full"><option>Ranch</option></select>' +
  '<textarea class="textarea w-full">Ranch</textarea><p class="label text-error">Ranch</p></div>' +
  '<div class="modal-action"><button type="button" class="btn btn-ghost">Ranch</button><button type="button" class="btn btn-primary">Ranch</button></div>';

/**
 * Lays `html` out once, with `dateField` in its field when given, hidden and gone again in
 * the same task (never painted, never read out: `inert`, `aria-hidden`, not visible).
 */
function layOutSample(html: string, dateField?: HTMLInputElement): void {
  const sample = document.createElement('div');
  sample.inert = true;
  sample.setAttribute('aria-hidden', 'true');
  sample.style.cssText = 'position:fixed;top:0;left:0;width:20rem;visibility:hidden;pointer-events:none;contain:layout style paint';
  sample.innerHTML = html;
  if (dateField) sample.querySelector('.fieldset')?.append(dateField);
  document.body.append(sample);
  try {
    sample.getBoundingClientRect(); // Style and layout, now.
  } finally {
    sample.remove();
  }
}

/** The date field's own sample: a field of a form, as FormField draws it. */
const FIELD = '<div class="fieldset py-1"></div>';

/**
 * Does in five tasks, once per page, what a renderer does on its first form: ICU's data
 * through an `Intl.NumberFormat` (loaded by a worker first: lib/warm-icu.ts), its date
 * formats through an `Intl.DateTimeFormat`, Blink's date field through an
 * `<input type="date">`, then that field styled and laid out, then a sample of the forms'
 * other controls: the fonts at the forms' sizes and weights found and loaded, and the date
 * field's calendar icon built.
 *
 * A renderer pays for each on its first use, and on a phone each is a long task: otherwise
 * the horse form's date field builds the locale inside the form's first render, and the
 * form's show styles and lays out its controls with cold fonts. Field and sample are laid
 * out in tasks of their own, each shorter than the two together. A renderer that has done
 * this before (a reload) pays little. The first step waits a task too, so a tap
 * that asks for it is answered first; the two layouts wait for a frame, so that what else the
 * page changed is drawn in that frame and not in the layout forced here.
 */
export function warmForms(): Promise<void> {
  warmed ??= (async () => {
    await yieldToBrowser();
    await warmIcu(); // Started with the app (main.tsx); done by now unless the form opened at once.
    timed('number format', () => new Intl.NumberFormat().format(1));
    await yieldToBrowser();
    timed('date format', () => new Intl.DateTimeFormat().format(0));
    await yieldToBrowser();
    const dateField = document.createElement('input');
    timed('date field', () => {
      dateField.type = 'date';
      dateField.className = 'input w-full';
    });
    // Each layout after a frame: a forced layout styles and lays out whatever else the page
    // changed since its last frame too (the phone's drawer made when idle), in the same task.
    await afterNextFrame();
    timed('date field laid out', () => layOutSample(FIELD, dateField));
    await afterNextFrame();
    timed('sample laid out', () => layOutSample(SAMPLE));
  })().catch(() => {}); // Only a head start: a failure here never holds a form back.
  return warmed;
}

/**
 * Runs a step and notes its time as a `performance.measure` ("forms warmed: …"; the phone
 * bench logs them). A browser that refuses the note (User Timing's options before Safari
 * 14.1) still gets the step: the note is never why the warm-up stops.
 */
function timed(step: string, work: () => unknown): void {
  const start = performance.now();
  work();
  try {
    performance.measure(`forms warmed: ${step}`, { start, end: performance.now() });
  } catch {
    // Only the bench's note is lost.
  }
}

/** `loading` (a form's or dialog's module), resolved once the forms are warmed too: both go on at once. */
export function withWarmForms<T>(loading: Promise<T>): Promise<T> {
  return Promise.all([loading, warmForms()]).then(([loaded]) => loaded);
}
