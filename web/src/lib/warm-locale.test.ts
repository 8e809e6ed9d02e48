import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmLocale, withWarmLocale } from './warm-locale.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('warmLocale', () => {
  it('builds a date field after the task that asked, in a task of its own, and once per page', async () => {
    const created = vi.spyOn(document, 'createElement');
    // `format` is a getter on Intl.NumberFormat's prototype (ECMA-402), which TypeScript types as a method.
    const numberFormats = vi.spyOn(Intl.NumberFormat.prototype as unknown as { format: unknown }, 'format', 'get');
    const dateFields = () => created.mock.results.filter(({ value }) => value instanceof HTMLInputElement && value.type === 'date').length;
    const first = warmLocale();
    // Nothing in the caller's task (a tap's): the first step waits a task.
    expect(numberFormats).not.toHaveBeenCalled();
    expect(dateFields()).toBe(0);
    await first;
    expect(numberFormats).toHaveBeenCalledTimes(1);
    expect(dateFields()).toBe(1);
    // A second form opened later: the same promise, nothing built again.
    expect(warmLocale()).toBe(first);
    await warmLocale();
    expect(dateFields()).toBe(1);
    expect(numberFormats).toHaveBeenCalledTimes(1);
  });

  it("gives a dialog's module as loaded, and a failed load's error, so opening it tries again", async () => {
    const module = { HorseDialog: 'the dialog' };
    await expect(withWarmLocale(Promise.resolve(module))).resolves.toBe(module);
    await expect(withWarmLocale(Promise.reject(new Error('Failed to fetch dynamically imported module')))).rejects.toThrow(
      'Failed to fetch dynamically imported module',
    );
  });
});
