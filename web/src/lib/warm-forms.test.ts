// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmForms, withWarmForms } from './warm-forms.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('warmForms', () => {
  it('builds a date field after the task that asked, lays it out in a task after, the sample in the next, and once per page', async () => {
    const created = vi.spyOn(document, 'createElement');
    // What was laid out: in the page then, with the date field; and whether that was in the
    // field's task, or in the task of the layout before.
    // And whether a frame came between it and the step before: what else the page changed is
    // drawn in that frame, not in the layout the warm-up forces.
    const laidOut: {
      connected: boolean;
      dateField: boolean;
      hidden: boolean;
      inFieldTask: boolean;
      inLayoutTask: boolean;
      afterFrame: boolean;
    }[] = [];
    let fieldTask = false;
    let layoutTask = false;
    let framed = false;
    const frame = window.requestAnimationFrame.bind(window);
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) =>
      frame((time) => {
        framed = true;
        callback(time);
      }),
    );
    const measured = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      laidOut.push({
        connected: this.isConnected,
        dateField: this.querySelector('input[type="date"]') !== null,
        hidden: this.inert && this.getAttribute('aria-hidden') === 'true' && this.style.visibility === 'hidden',
        inFieldTask: fieldTask,
        inLayoutTask: layoutTask,
        afterFrame: framed,
      });
      framed = false;
      layoutTask = true;
      setTimeout(() => {
        layoutTask = false;
      }, 0);
      return new DOMRect();
    });
    const before = document.body.innerHTML;
    // `format` is a getter on Intl.NumberFormat's prototype (ECMA-402), which TypeScript types as a method.
    const numberFormats = vi.spyOn(Intl.NumberFormat.prototype as unknown as { format: unknown }, 'format', 'get');
    const dateFields = () => created.mock.results.filter(({ value }) => value instanceof HTMLInputElement && value.type === 'date').length;
    const types = vi.spyOn(HTMLInputElement.prototype, 'type', 'set');
    types.mockImplementation(function (this: HTMLInputElement, type: string) {
      this.setAttribute('type', type);
      fieldTask = true;
      setTimeout(() => {
        fieldTask = false;
      }, 0);
    });
    const first = warmForms();
    // Nothing in the caller's task (a tap's): the first step waits a task.
    expect(numberFormats).not.toHaveBeenCalled();
    expect(dateFields()).toBe(0);
    await first;
    expect(numberFormats).toHaveBeenCalledTimes(1);
    expect(dateFields()).toBe(1);
    // The field laid out, then the sample without it, each in a task of its own after a frame,
    // hidden, and gone again: the page is as it was.
    expect(laidOut).toEqual([
      { connected: true, dateField: true, hidden: true, inFieldTask: false, inLayoutTask: false, afterFrame: true },
      { connected: true, dateField: false, hidden: true, inFieldTask: false, inLayoutTask: false, afterFrame: true },
    ]);
    expect(document.body.innerHTML).toBe(before);
    expect(measured).toHaveBeenCalledTimes(2);
    // Each step's time noted for the phone bench, once.
    const steps = performance.getEntriesByType('measure').filter(({ name }) => name.startsWith('forms warmed: '));
    expect(steps.map(({ name }) => name)).toEqual([
      'forms warmed: number format',
      'forms warmed: date format',
      'forms warmed: date field',
      'forms warmed: date field laid out',
      'forms warmed: sample laid out',
    ]);
    // A second form opened later: the same promise, nothing built again.
    expect(warmForms()).toBe(first);
    await warmForms();
    expect(dateFields()).toBe(1);
    expect(numberFormats).toHaveBeenCalledTimes(1);
  });

  it('goes on through every step where the browser refuses to note their times', async () => {
    vi.resetModules(); // A page of its own: warmForms runs once per page.
    const { warmForms: warmAnotherPage } = await import('./warm-forms.ts');
    vi.spyOn(performance, 'measure').mockImplementation(() => {
      throw new TypeError('Failed to execute measure: options are not supported');
    });
    const laidOut = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(() => new DOMRect());
    await warmAnotherPage();
    expect(laidOut).toHaveBeenCalledTimes(2); // The date field, then the sample.
  });

  it("gives a dialog's module as loaded, and a failed load's error, so opening it tries again", async () => {
    const module = { HorseDialog: 'the dialog' };
    await expect(withWarmForms(Promise.resolve(module))).resolves.toBe(module);
    await expect(withWarmForms(Promise.reject(new Error('Failed to fetch dynamically imported module')))).rejects.toThrow(
      'Failed to fetch dynamically imported module',
    );
  });
});
